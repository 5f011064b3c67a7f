import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct SQL texts keep their prepared statement (the api issues a few hundred). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely's SQLite dialect sees it, with prepared statements kept by SQL text.
 * Kysely prepares every query it runs; preparing costs about as much as running one of the api's
 * small lookups, and a list request runs a dozen of them. A statement is reused only for `all` and
 * `run`, which finish before they return; `iterate` (a statement busy until the iterator ends) gets
 * a fresh one, so an abandoned stream cannot leave the cached statement busy. SQLite recompiles a cached statement itself when the schema changes.
 * The least recently used statement leaves when the cache is full.
 *
 * better-sqlite3 refuses to bind JS booleans: boolean parameters are bound as 1/0 here, one pass over
 * the parameter list (a Kysely plugin doing the same clones every query's whole tree first).
 */
function bindable(parameters: ReadonlyArray<unknown>): unknown[] {
  return parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

export function cachingStatements(connection: SqliteConnection, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    const cached = cache.get(sql);
    if (cached) {
      // most recently used last: Map keeps insertion order
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const prepared = connection.prepare(sql);
    cache.set(sql, prepared);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    return prepared;
  };
  return {
    close: () => {
      cache.clear();
      connection.close();
    },
    prepare(sql: string): SqliteStatement {
      const prepared = statement(sql);
      return {
        reader: prepared.reader,
        // Kysely passes the parameters as one array, which better-sqlite3 binds in order
        all: (parameters) => prepared.all(bindable(parameters)),
        run: (parameters) => prepared.run(bindable(parameters)),
        iterate: (parameters) => connection.prepare(sql).iterate(bindable(parameters)) as IterableIterator<unknown>,
      };
    },
  };
}
