import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import * as m0001 from './migrations/0001-foundation';
import * as m0002 from './migrations/0002-identity';
import * as m0003 from './migrations/0003-settings';
import * as m0004 from './migrations/0004-projects';
import * as m0005 from './migrations/0005-files';
import * as m0006 from './migrations/0006-transfers';
import * as m0007 from './migrations/0007-app-secrets';
import * as m0008 from './migrations/0008-task-trackers';
import * as m0009 from './migrations/0009-interviews';
import * as m0010 from './migrations/0010-practice-names';
import * as m0011 from './migrations/0011-requests';
import * as m0012 from './migrations/0012-reports';
import * as m0013 from './migrations/0013-task-counts';
import * as m0014 from './migrations/0014-task-detail-counts';
import * as m0015 from './migrations/0015-task-list-indexes';
import * as m0016 from './migrations/0016-sso-domains';
import type { Dialect } from './database';

/** In-code provider: no file-system scanning, works the same under tsx, jest and a bundle. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-identity': m0002,
  '0003-settings': m0003,
  '0004-projects': m0004,
  '0005-files': m0005,
  '0006-transfers': m0006,
  '0007-app-secrets': m0007,
  '0008-task-trackers': m0008,
  '0009-interviews': m0009,
  '0010-practice-names': m0010,
  '0011-requests': m0011,
  '0012-reports': m0012,
  '0013-task-counts': m0013,
  '0014-task-detail-counts': m0014,
  '0015-task-list-indexes': m0015,
  '0016-sso-domains': m0016,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateToLatest());
}

/** Migrates up or down to the migration `name` (a test of a backfill starts from the one before it). */
export async function migrateTo(db: Kysely<any>, dialect: Dialect, name: string): Promise<void> {
  await migrate(db, dialect, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  db: Kysely<any>,
  dialect: Dialect,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: pin it to the
  // connection's current schema so parallel test schemas (and other apps' schemas) do not mix.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const { error, results } = await run(new Migrator({ db, provider, migrationTableSchema }));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
