import type { Database as SqliteConnection } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct SQL texts keep their prepared statement (the api issues a few hundred). */
export const STATEMENT_CACHE_SIZE = 500;

/** better-sqlite3 refuses to bind JS booleans: they are bound as 1/0 (see cachingStatements). */
function bindable(parameters: ReadonlyArray<unknown>): unknown[] {
  return parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

/**
 * The text SQLite prepares for a query's text: `limit ?` becomes `limit (? + 0)`. SQLite (3.53, as
 * better-sqlite3 builds it) plans a LIMIT that is a bare parameter with the value bound to it, and so
 * marks the statement to be prepared again whenever that parameter is bound: a kept statement with
 * `limit ?` was parsed and planned anew on every run (measured: a task list page 144 µs, 103 µs
 * without; a one-row lookup with `limit ?` 8 µs, 1.8 µs without). An expression is not planned by its
 * value, and gives the same rows. Quoted text is left as it is.
 */
export function sqliteText(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\blimit\s+\?(?!\w)/gi, (match) =>
    match[0] === "'" || match[0] === '"' ? match : 'limit (? + 0)',
  );
}

/**
 * Rows as objects from rows as arrays (better-sqlite3's `raw` mode), one shape for every row.
 * better-sqlite3 builds each row object through V8's API one property at a time, about 0.1 µs a
 * column (a task list page: 91 µs, 70 µs read as arrays); an object literal compiled once for the
 * statement's columns costs next to nothing. Same keys in the same order as better-sqlite3's objects
 * (a repeated name: the last value).
 */
function rowFactory(names: readonly string[]): (row: unknown[]) => Record<string, unknown> {
  const last = new Map<string, number>();
  names.forEach((name, i) => last.set(name, i));
  // (a column named __proto__ sets the prototype here as it does there)
  const properties = [...last].map(([name, i]) => `${JSON.stringify(name)}: row[${i}]`);
  return new Function('row', `return { ${properties.join(', ')} };`) as (row: unknown[]) => Record<string, unknown>;
}

/**
 * Whether a query's columns are named in its text: a `*` may name other columns after a schema change
 * (SQLite prepares such a statement again itself), so its rows stay built by better-sqlite3.
 */
function namesItsColumns(sql: string): boolean {
  return !/(?:^|[\s,.(])\*\s*(?:,|from\b|$)/i.test(sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, '""'));
}

/** A kept statement as Kysely's SQLite dialect runs it. */
function kept(connection: SqliteConnection, sql: string): SqliteStatement {
  const text = sqliteText(sql);
  const prepared = connection.prepare(text);
  let all: SqliteStatement['all'] = (parameters) => prepared.all(bindable(parameters));
  if (prepared.reader && namesItsColumns(text)) {
    const toRow = rowFactory(prepared.columns().map((column) => column.name));
    prepared.raw(true);
    all = (parameters) => (prepared.all(bindable(parameters)) as unknown[][]).map(toRow);
  }
  return {
    reader: prepared.reader,
    // Kysely passes the parameters as one array, which better-sqlite3 binds in order
    all,
    run: (parameters) => prepared.run(bindable(parameters)),
    iterate: (parameters) => connection.prepare(text).iterate(bindable(parameters)) as IterableIterator<unknown>,
  };
}

/**
 * The connection as Kysely's SQLite dialect sees it, with prepared statements kept by SQL text.
 * Kysely prepares every query it runs; preparing costs about as much as running one of the api's
 * small lookups, and a list request runs a dozen of them. A statement is reused only for `all` and
 * `run`, which finish before they return; `iterate` (a statement busy until the iterator ends) gets
 * a fresh one, so an abandoned stream cannot leave the cached statement busy. SQLite recompiles a
 * cached statement itself when the schema changes.
 * The least recently used statement leaves when the cache is full. The object Kysely is handed for a
 * statement is kept with it: a new one on each run made four closures, each named by tsx's helper
 * (about 1% of a task list request's time). SELECTs run in `raw` mode (rowFactory) and SQLite
 * prepares `limit (? + 0)` for `limit ?` (sqliteText).
 *
 * better-sqlite3 refuses to bind JS booleans: boolean parameters are bound as 1/0 here, one pass over
 * the parameter list (a Kysely plugin doing the same clones every query's whole tree first).
 */
export function cachingStatements(connection: SqliteConnection, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      connection.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) {
        // most recently used last: Map keeps insertion order
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = kept(connection, sql);
      cache.set(sql, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
