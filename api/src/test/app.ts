/**
 * Test helper: the real app on a fresh real database (SQLite temp dir, or a PostgreSQL schema per
 * file; an app copies the run's migrated or seeded template instead when there is one, template.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import lightMyRequest from 'light-my-request';
import { buildApp } from '../app';
import { loadConfig, type AppConfig } from '../config';
import { openDatabase, type OpenDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { seedIfEmpty } from '../db/seed';
import { createSession } from '../db/sessions';
import { findUserCredentialsByEmail } from '../db/users';
import { createStorage } from '../lib/storage';
import { placeRepoDeclarations } from './remotes';
import {
  adminQuery,
  copyTemplateFiles,
  postgresUrlFor,
  templatesFromEnv,
  type TemplateKind,
  type TestTemplates,
} from './template';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;

export interface TestDatabase extends OpenDatabase {
  /** The SQLite temp dir, or the name of the PostgreSQL database. */
  location: string;
  /** Drops everything this database created. */
  destroy(): Promise<void>;
}

export function makeTempDir(prefix = 'portal-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * An empty database of its own: on PostgreSQL a new database (not a schema of a shared one: Kysely's
 * migrator lists the tables of every schema of its database, and a schema that another test file
 * drops meanwhile failed that listing with "schema … does not exist"), on SQLite a file in a temp dir.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE_URL) {
    const name = `test_${randomBytes(6).toString('hex')}`;
    await adminQuery(TEST_DATABASE_URL, `create database "${name}" template template0`);
    const database = openDatabase({ databaseUrl: postgresUrlFor(TEST_DATABASE_URL, name) });
    return {
      ...database,
      location: name,
      async destroy() {
        await database.close();
        await adminQuery(TEST_DATABASE_URL!, `drop database if exists "${name}" with (force)`);
      },
    };
  }
  return sqliteDatabaseIn(makeTempDir());
}

/** The SQLite database `portal.sqlite` in a temp dir of its own, which `destroy` removes. */
function sqliteDatabaseIn(dir: string): TestDatabase {
  const database = openDatabase({ sqlitePath: path.join(dir, 'portal.sqlite') });
  return {
    ...database,
    location: dir,
    async destroy() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
  /** A session cookie for a seeded user, made through the sessions repository (sign-in itself is tested in auth). */
  cookieFor(email: string): Promise<string>;
  /** `app.inject`, through the light-my-request pinned in api/package.json (see `inject` below). */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** `inject` with the portal's client header and a same-origin Origin, as the web sends them. */
  api(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  /** How many SQL statements the app has sent since the app started (query budgets). */
  queryCount(): number;
  close(): Promise<void>;
}

/**
 * Counts every statement a Kysely instance runs: raw `sql` and the compiled prepared queries
 * (db/prepared.ts) too, which skip `transformQuery` but not `transformResult`.
 */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs) {
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    this.count += 1;
    return result;
  }
}

export interface TestAppOptions {
  /** Extra environment for loadConfig (WEB_ROOT, REMOTES_MANIFEST_FILE, ...). */
  env?: Record<string, string>;
  seed?: boolean;
  /** Register test-only routes before the app is ready. */
  extend?: (app: FastifyInstance) => void;
  /** DNS TXT answers by domain (domain verification); a domain not listed has none. */
  txtRecords?: Record<string, string[]>;
}

/**
 * A copy of one of the run's templates (template.ts): on SQLite a temp dir holding a copy of its
 * database file and files, on PostgreSQL a new database made from it (its files go to `dataDir`).
 */
async function copyTemplate(
  templates: TestTemplates,
  kind: TemplateKind,
  dataDir: string | null,
): Promise<TestDatabase> {
  if (TEST_DATABASE_URL) {
    if (!templates.databases || !dataDir)
      throw new Error('the test templates were built for SQLite, this run is on PostgreSQL');
    const name = `test_${randomBytes(6).toString('hex')}`;
    await adminQuery(TEST_DATABASE_URL, `create database "${name}" template "${templates.databases[kind]}"`);
    copyTemplateFiles(templates, kind, dataDir);
    const database = openDatabase({ databaseUrl: postgresUrlFor(TEST_DATABASE_URL, name) });
    return {
      ...database,
      location: name,
      async destroy() {
        await database.close();
        await adminQuery(TEST_DATABASE_URL!, `drop database if exists "${name}" with (force)`);
      },
    };
  }
  if (templates.databases) throw new Error('the test templates were built for PostgreSQL, this run is on SQLite');
  const dir = makeTempDir();
  copyTemplateFiles(templates, kind, dir);
  return sqliteDatabaseIn(dir);
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const templates = templatesFromEnv();
  const tempDirs = [makeTempDir('portal-web-')];
  // a web root with the remotes' declarations, as a build leaves them (test/remotes.ts)
  placeRepoDeclarations(tempDirs[0]);
  if (TEST_DATABASE_URL) tempDirs.push(makeTempDir());
  const seed = options.seed !== false;
  let database: TestDatabase;
  if (templates) {
    database = await copyTemplate(templates, seed ? 'seeded' : 'migrated', TEST_DATABASE_URL ? tempDirs[1] : null);
  } else {
    database = await createTestDatabase();
    await migrateToLatest(database.db, database.dialect);
  }
  const config = loadConfig({
    DATA_DIR: TEST_DATABASE_URL ? tempDirs[1] : database.location,
    WEB_ROOT: tempDirs[0],
    FLAG_HMAC_SECRET: 'test-flag-secret',
    // light-my-request's default Host is localhost:80: the portal's one origin in tests
    PUBLIC_URL: 'http://localhost',
    // whatever PUBLIC_URL a test sets: injected requests name localhost, real ones 127.0.0.1:<port>
    ALLOWED_HOSTS: 'localhost,127.0.0.1',
    // No background reminder sweep: tests run it themselves (sweepRequestReminders) or opt in here.
    REQUEST_REMINDER_MINUTES: '0',
    ...options.env,
  });
  // The demo files' bytes go where the app's storage reads them (a template's copy brought them along).
  if (seed && !templates) await seedIfEmpty(database.db, { storage: createStorage(config) });
  const txt = options.txtRecords ?? {};
  const counter = new QueryCounter();
  const app = buildApp({
    db: database.db.withPlugin(counter),
    config,
    resolveTxt: async (domain) => txt[domain] ?? [],
  });
  options.extend?.(app);
  await app.ready();

  const cookies = new Map<string, string>();
  return {
    app,
    database,
    config,
    async cookieFor(email) {
      let cookie = cookies.get(email);
      if (!cookie) {
        const found = await findUserCredentialsByEmail(database.db, email);
        if (!found) throw new Error(`no seeded user ${email}`);
        const { token } = await createSession(database.db, { userId: found.user.id, userAgent: 'jest', maxHours: 1 });
        cookie = `pe_session_token=${token}`;
        cookies.set(email, cookie);
      }
      return cookie;
    },
    inject: (injectOptions) => inject(app, injectOptions),
    queryCount: () => counter.count,
    api({ cookie, headers, ...rest }) {
      return inject(app, {
        ...rest,
        // as a browser sends it: light-my-request's default host is localhost:80
        headers: { 'x-portal-client': 'web', origin: 'http://localhost', ...(cookie ? { cookie } : {}), ...headers },
      } as InjectOptions);
    },
    async close() {
      await app.close();
      await database.destroy();
      for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What `app.inject` does, with light-my-request 6.6: fastify 5.12 pulls 6.8, whose `cookie` 2 is
 * ESM-only, which jest cannot require on Node 20. Same dispatch (fastify's own `routing` handler).
 */
export function inject(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  return lightMyRequest((req, res) => app.routing(req, res), {
    ...options,
    server: app.server,
  } as never) as unknown as Promise<LightMyRequestResponse>;
}
