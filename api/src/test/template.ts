/**
 * The api test files' starting databases, built once per jest run and copied for each test app.
 *
 * Migrating and seeding took most of an api test file's set-up, and every file did it again. The
 * api project's globalSetup (global-setup.ts) builds two databases once, on the database the run is
 * for: one migrated (`seed: false`) and one migrated and seeded, with the seed's files. createTestApp
 * then gives each app a copy of one of them: on SQLite a copy of the database file (and its files),
 * on PostgreSQL a new database made with the template as its `TEMPLATE`. Each copy is a database of
 * its own, dropped when the app closes, as before. The migrations and the seed themselves are still
 * run from scratch by their own tests (db/migrate.test.ts, db/seed.test.ts).
 *
 * Without the environment variable (a script such as the fuzzer, or a run without the globalSetup)
 * createTestApp migrates and seeds a fresh database itself.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { seedIfEmpty } from '../db/seed';
import { TEST_HASH_OPTIONS } from './hashing';
import { createStorage } from '../lib/storage';

/** Where globalSetup hands the templates to the test files (jest's workers inherit its environment). */
export const TEMPLATE_ENV = 'PORTAL_TEST_TEMPLATE';

export type TemplateKind = 'migrated' | 'seeded';

export interface TestTemplates {
  /** `<dir>/<kind>/`: on SQLite the database file and its files/, on PostgreSQL the seed's files/. */
  dir: string;
  /** PostgreSQL only: the template database of each kind. */
  databases?: Record<TemplateKind, string>;
}

export function templatesFromEnv(): TestTemplates | null {
  const value = process.env[TEMPLATE_ENV];
  return value ? (JSON.parse(value) as TestTemplates) : null;
}

/** The same server and credentials, another database. */
export function postgresUrlFor(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(databaseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Builds the migrated and the seeded template (SQLite when `databaseUrl` is null). */
export async function buildTemplates(databaseUrl: string | null): Promise<TestTemplates> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-template-'));
  const kinds: TemplateKind[] = ['migrated', 'seeded'];
  for (const kind of kinds) fs.mkdirSync(path.join(dir, kind));
  if (!databaseUrl) {
    const migrated = path.join(dir, 'migrated', 'portal.sqlite');
    await withDatabase({ sqlitePath: migrated }, (database) => migrateToLatest(database.db, database.dialect));
    fs.copyFileSync(migrated, path.join(dir, 'seeded', 'portal.sqlite'));
    await withDatabase({ sqlitePath: path.join(dir, 'seeded', 'portal.sqlite') }, (database) =>
      seed(database.db, path.join(dir, 'seeded')),
    );
    return { dir };
  }
  const prefix = `test_template_${randomBytes(4).toString('hex')}`;
  const databases: Record<TemplateKind, string> = { migrated: `${prefix}_migrated`, seeded: `${prefix}_seeded` };
  const templates: TestTemplates = { dir, databases };
  try {
    await adminQuery(databaseUrl, `create database "${databases.migrated}"`);
    await withDatabase({ databaseUrl: postgresUrlFor(databaseUrl, databases.migrated) }, (database) =>
      migrateToLatest(database.db, database.dialect),
    );
    await adminQuery(databaseUrl, `create database "${databases.seeded}" template "${databases.migrated}"`);
    await withDatabase({ databaseUrl: postgresUrlFor(databaseUrl, databases.seeded) }, (database) =>
      seed(database.db, path.join(dir, 'seeded')),
    );
  } catch (error) {
    await dropTemplates(templates, databaseUrl);
    throw error;
  }
  return templates;
}

export async function dropTemplates(templates: TestTemplates, databaseUrl: string | null): Promise<void> {
  if (databaseUrl && templates.databases) {
    for (const name of Object.values(templates.databases))
      await adminQuery(databaseUrl, `drop database if exists "${name}" with (force)`);
  }
  fs.rmSync(templates.dir, { recursive: true, force: true });
}

async function withDatabase(
  options: { sqlitePath?: string; databaseUrl?: string },
  run: (database: ReturnType<typeof openDatabase>) => Promise<unknown>,
): Promise<void> {
  const database = openDatabase(options);
  try {
    await run(database);
  } finally {
    // closing SQLite's last connection checkpoints the WAL into the file: one file to copy
    await database.close();
  }
}

/** What createTestApp seeded: the demo data, its files' bytes under `dataDir/files`. */
async function seed(db: Parameters<typeof seedIfEmpty>[0], dataDir: string): Promise<void> {
  await seedIfEmpty(db, { storage: createStorage({ dataDir }), hashOptions: TEST_HASH_OPTIONS });
}

/** Copies a template's files (SQLite: the database too) into `dataDir`. */
export function copyTemplateFiles(templates: TestTemplates, kind: TemplateKind, dataDir: string): void {
  const from = path.join(templates.dir, kind);
  for (const name of fs.readdirSync(from))
    fs.cpSync(path.join(from, name), path.join(dataDir, name), { recursive: true });
}
