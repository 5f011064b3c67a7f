/**
 * What the database benchmarks share: command-line options, a fresh database to load (a SQLite file in
 * a temp dir, or a new schema of BENCH_DATABASE_URL), and cleanup of whatever is open, also on Ctrl-C,
 * so the loaded data never outlives the run.
 */
import { randomBytes } from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { sql } from 'kysely';
import { describePostgresUrl, openDatabase, type OpenDatabase } from '../../api/src/db/database';

/** `--name=value` on the command line, else `fallback`. */
export function option(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Target {
  label: string;
  database: OpenDatabase;
  /** How the api as its own process reaches this database: its DATA_DIR (SQLite) or DATABASE_URL. */
  api: { dataDir?: string; databaseUrl?: string };
  dispose(): Promise<void>;
}

/** Cleanups of what is open; run on Ctrl-C. Add a cleanup while its resource lives, delete it after. */
export const disposers = new Set<() => Promise<void>>();
process.on('SIGINT', () => {
  void Promise.allSettled([...disposers].map((d) => d())).then(() => process.exit(130));
});

export function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const database = openDatabase({ sqlitePath: path.join(dir, 'portal.sqlite') });
  return {
    label: 'SQLite',
    database,
    // the api's SQLite file is DATA_DIR/portal.sqlite
    api: { dataDir: dir },
    async dispose() {
      await database.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The url with `options=-c search_path=<schema>`: the api's pool then works in that schema. */
function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A new schema of PG_URL, or null (with a note) when PostgreSQL cannot be reached. */
export async function postgresTarget(): Promise<Target | null> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = openDatabase({ databaseUrl: PG_URL });
  try {
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  } catch (error) {
    await admin.close();
    const reason = (error as Error).message || (error as NodeJS.ErrnoException).code;
    console.log(
      `\nPostgreSQL skipped: cannot use ${describePostgresUrl(PG_URL)} (${reason}). Set BENCH_DATABASE_URL to a PostgreSQL database.`,
    );
    return null;
  }
  const database = openDatabase({ databaseUrl: PG_URL, searchPath: schema });
  return {
    label: `PostgreSQL (${describePostgresUrl(PG_URL)}, schema ${schema})`,
    database,
    api: { databaseUrl: withSearchPath(PG_URL, schema) },
    async dispose() {
      await database.close().catch(() => undefined);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}

/**
 * Runs `work` on a fresh SQLite database, then on a fresh PostgreSQL schema (`only`: 'sqlite' or
 * 'postgres' for one of them; PostgreSQL is skipped when it cannot be reached), disposing of each after.
 */
export async function onEachTarget<T>(only: string, work: (target: Target) => Promise<T>): Promise<T[]> {
  const makers: (() => Promise<Target | null>)[] = [];
  if (only !== 'postgres') makers.push(async () => sqliteTarget());
  if (only !== 'sqlite') makers.push(postgresTarget);
  const results: T[] = [];
  for (const make of makers) {
    const target = await make();
    if (!target) continue;
    disposers.add(target.dispose);
    try {
      results.push(await work(target));
    } finally {
      disposers.delete(target.dispose);
      await target.dispose();
    }
  }
  return results;
}
