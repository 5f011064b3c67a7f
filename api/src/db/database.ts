import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { statementNames } from './prepared';
import type { Database } from './schema';
import { cachingStatements } from './sqlite-statements';
import { pgTimestampToIso } from './values';

/** PostgreSQL's type oid of timestamptz, and pg's own parser of its text (a Date). */
const TIMESTAMPTZ = 1184;
const defaultTimestampParser = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

export type Dialect = 'sqlite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent, SQLite at `sqlitePath`. */
  databaseUrl?: string | null;
  sqlitePath?: string;
  /** PostgreSQL only: run every connection in this schema (tests use one schema per file). */
  searchPath?: string;
}

export function openDatabase(options: OpenDatabaseOptions): OpenDatabase {
  if (options.databaseUrl) {
    const config: pg.PoolConfig & { onConnect(client: pg.PoolClient): Promise<void> } = {
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: 5000,
      // timestamptz as toISOString's text (values.ts pgTimestampToIso) instead of a Date each: what
      // the repositories make of it anyway (toIso), and a task page reads two per row. pg's parser
      // ran a regular expression and built a Date for each, a sixth of what a page allocated.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === TIMESTAMPTZ && format !== 'binary'
            ? (text: string) => pgTimestampToIso(text, defaultTimestampParser)
            : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
      },
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
      // Run on each new connection before the pool hands it out (pg-pool awaits it). Named
      // statements get one plan per connection (prepared.ts, Planning); unnamed ones are planned per
      // call whatever this says. No JIT compilation: it is priced on the planner's estimates, and a
      // generic plan's for a page (a tenth of the rows, LIMIT and OFFSET being unknown) set off 30 to
      // 80 ms of compiling for a query that runs in one.
      async onConnect(client) {
        for (const setting of ['set plan_cache_mode = force_generic_plan', 'set jit = off']) {
          // a server without the setting (before PostgreSQL 12) runs as it did
          await client.query(setting).catch(() => undefined);
        }
      },
    };
    const pool = new pg.Pool(config);
    // A client losing its connection (PostgreSQL restarting, a network cut) emits 'error', and an
    // 'error' nobody listens to ends the process. The pool listens while a client is idle; while one
    // is checked out (a query or transaction under way, or its release still to come) nobody does,
    // so every client gets a listener of its own. Its queries fail and reject as usual, and the pool
    // drops the client when it comes back unusable.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    // The texts of prepared queries planned once go by name (db/prepared.ts): parsed and planned
    // once per connection. Other queries go unnamed: parsed and planned on each call.
    const named = {
      async connect() {
        const client = await pool.connect();
        return {
          query: ((text: unknown, values?: unknown[]) => {
            const name = typeof text === 'string' ? statementNames.get(text) : undefined;
            return name ? client.query({ name, text: text as string, values }) : client.query(text as string, values);
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
      },
      end: () => pool.end(),
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (!options.sqlitePath) throw new Error('openDatabase needs databaseUrl or sqlitePath');
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true });
  const sqlite = new SQLite(options.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Which database this Kysely instance runs on. */
export function dialectOf(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Health check and start-up probe. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Where a PostgreSQL URL points, without the password: `host:port/database`. */
export function describePostgresUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const database = url.pathname.replace(/^\//, '') || 'postgres';
    return `${url.hostname || 'localhost'}:${url.port || '5432'}/${database}`;
  } catch {
    return '(invalid DATABASE_URL)';
  }
}
