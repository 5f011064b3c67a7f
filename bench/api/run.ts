/**
 * bench/api: do the tasks lists stay fast as data grows? On SQLite and on PostgreSQL, each in a fresh
 * database (a temp dir; a new schema of BENCH_DATABASE_URL, dropped at the end): migrate, seed the
 * demo data, bulk-load 1,000,000 tasks (100,000 of them in Acme Corp, see load.ts), start the real api
 * on 127.0.0.1, sign in as consultant@demo.test and time, over keep-alive HTTP, the first page and a
 * page ~90% deep of:
 *  - the company task list (GET /companies/:id/tasks, keyset: the deep page's cursor is made from
 *    the row 90% down, with the api's own encoding), and
 *  - the project task list of Acme's large project (GET /projects/:id/tasks, page/pageSize).
 * Prints p50/p99 per case and the deep/first ratio of the p50s, which should stay within 1.5x.
 * Exits 1 when a ratio does not.
 *
 * Then the same cases with --connections=N (10) clients at once, against the api started as its own
 * process (api/src/server.ts on the same database) from a client process of its own (concurrent.ts),
 * after 150 requests per connection of warm-up: p99 against the budget (15 ms on SQLite, 25 ms on
 * PostgreSQL); exits 1 when a case is over it.
 * Options: --tasks=N (1,000,000), --requests=N per case (250), --only=sqlite|postgres, --connections=N.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import { pathToFileURL } from 'url';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { Dialect } from '../../api/src/db/database';
import { migrateToLatest } from '../../api/src/db/migrate';
import type { Database } from '../../api/src/db/schema';
import { seedIfEmpty } from '../../api/src/db/seed';
import { createSession } from '../../api/src/db/sessions';
import { encodeTaskCursor } from '../../api/src/db/tasks';
import { loadTasks, type LoadResult } from './load';
import { startApi } from '../load/server';
import { count, httpClient, measure, ms, table, type Case, type Timing } from './measure';
import { disposers, onEachTarget, option, type Target } from './targets';

const RATIO_LIMIT = 1.5;
const DEPTH = 0.9;
const PAGE = 25;
const WARMUP = 30;
const USER = 'consultant@demo.test';

const TOTAL = Number(option('tasks', '1000000'));
const REQUESTS = Number(option('requests', '250'));
const ONLY = option('only', '');
const CONNECTIONS = Number(option('connections', '10'));
/** Requests per connection before the measured ones (see measureOnOwnProcess). */
const CONCURRENT_WARMUP = 150;
/** p99 of a task list with CONNECTIONS connections at once, at 100,000 tasks in the company. */
const P99_BUDGET_MS = { sqlite: 15, postgres: 25 } as const;

interface Report {
  label: string;
  dialect: Dialect;
  load: LoadResult;
  seedSeconds: number;
  projectTopLevel: number;
  projectPages: number;
  deepPage: number;
  companyRow: number;
  timings: Timing[];
  /** The same cases, CONNECTIONS clients at once. */
  concurrent: Timing[];
}

async function idOf(
  db: Kysely<Database>,
  table: 'companies' | 'users',
  column: 'name' | 'email',
  value: string,
): Promise<string> {
  return (await db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id;
}

async function bench(target: Target): Promise<Report> {
  const { db, dialect } = target.database;
  console.log(`\n${target.label}: migrating, seeding, loading ${count(TOTAL)} tasks…`);
  await migrateToLatest(db, dialect);
  const seedStarted = performance.now();
  await seedIfEmpty(db);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const acmeId = await idOf(db, 'companies', 'name', 'Acme Corp');
  const userId = await idOf(db, 'users', 'email', USER);
  const acmeAssignees = (
    await db
      .selectFrom('company_memberships')
      .innerJoin('users', 'users.id', 'company_memberships.user_id')
      .select('users.id')
      .where('company_memberships.company_id', '=', acmeId)
      .where('company_memberships.access_revoked_at', 'is', null)
      .where('users.status', '=', 'active')
      .execute()
  ).map((u) => u.id);
  const load = await loadTasks(db, dialect, {
    total: TOTAL,
    acmeId,
    creatorId: userId,
    acmeAssignees,
    now: Date.now(),
  });
  const loadSeconds = Object.values(load.timings).reduce((a, b) => a + b, 0);
  console.log(
    `  loaded in ${loadSeconds.toFixed(1)} s (${Object.entries(load.timings)
      .map(([step, s]) => `${step} ${s.toFixed(1)} s`)
      .join(', ')})`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-app-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_ROOT: dataDir,
    FLAG_HMAC_SECRET: 'bench',
    RATE_LIMIT_MAX: '1000000',
    ALLOWED_HOSTS: '127.0.0.1',
  });
  const app = buildApp({ db, config });
  const closeApp = async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  disposers.add(closeApp);
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const { token } = await createSession(db, { userId, userAgent: 'bench/api', maxHours: 2 });
    const client = httpClient(`http://127.0.0.1:${port}`, `pe_session_token=${token}`);

    // The company list, ~90% deep: the cursor of the row just above, as the api makes it (its own
    // created_at text and encoder); checked against the api's first nextCursor and the deep page's first row.
    const ordered = () =>
      db
        .selectFrom('tasks')
        .select(['id', sql<string>`cast(created_at as text)`.as('created_key')])
        .where('company_id', '=', acmeId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc');
    const companyRow = Math.floor(load.acmeTasks * DEPTH);
    const [above] = await ordered()
      .limit(1)
      .offset(companyRow - 1)
      .execute();
    const [expected] = await ordered().limit(1).offset(companyRow).execute();
    const cursor = encodeTaskCursor({ createdAt: above.created_key, id: above.id });
    const companyUrl = `/api/v1/companies/${acmeId}/tasks?limit=${PAGE}`;
    const first = JSON.parse((await client.get(companyUrl)).body) as { results: { id: string }[]; nextCursor: string };
    const [row25] = await ordered()
      .limit(1)
      .offset(PAGE - 1)
      .execute();
    if (first.nextCursor !== encodeTaskCursor({ createdAt: row25.created_key, id: row25.id })) {
      throw new Error(`the api's cursor is not built as this benchmark builds it: ${first.nextCursor}`);
    }
    const deepUrl = `${companyUrl}&cursor=${encodeURIComponent(cursor)}`;
    const deep = JSON.parse((await client.get(deepUrl)).body) as { results: { id: string }[] };
    if (deep.results.length !== PAGE || deep.results[0].id !== expected.id)
      throw new Error('the deep company page does not start at the row 90% down');

    // The large project's list: the page ~90% deep.
    const project = load.acmeProjects[0];
    const projectUrl = `/api/v1/projects/${project.id}/tasks?pageSize=${PAGE}`;
    const projectFirst = JSON.parse((await client.get(`${projectUrl}&page=1`)).body) as {
      total: number;
      results: unknown[];
    };
    const projectPages = Math.ceil(projectFirst.total / PAGE);
    const deepPage = Math.floor(projectPages * DEPTH);
    const projectDeep = JSON.parse((await client.get(`${projectUrl}&page=${deepPage}`)).body) as { results: unknown[] };
    if (projectFirst.results.length !== PAGE || projectDeep.results.length !== PAGE)
      throw new Error('the project pages are not full');

    const cases: Case[] = [
      { name: 'company tasks, first page', url: companyUrl },
      { name: `company tasks, deep page (cursor after row ${count(companyRow)})`, url: deepUrl },
      { name: 'project tasks, first page', url: `${projectUrl}&page=1` },
      {
        name: `project tasks, deep page (page ${count(deepPage)} of ${count(projectPages)})`,
        url: `${projectUrl}&page=${deepPage}`,
      },
    ];
    const timings = await measure(client, cases, REQUESTS, WARMUP);
    // Many connections at once: against the api as its own process (api/src/server.ts on the same
    // database), measured from a client process of its own (concurrent.ts).
    const concurrent = await measureOnOwnProcess(target, token, cases);
    return {
      label: target.label,
      dialect,
      load,
      seedSeconds,
      projectTopLevel: projectFirst.total,
      projectPages,
      deepPage,
      companyRow,
      timings,
      concurrent,
    };
  } finally {
    disposers.delete(closeApp);
    await closeApp();
  }
}

async function measureOnOwnProcess(target: Target, token: string, cases: Case[]): Promise<Timing[]> {
  const dataDir = target.api.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
  const api = await startApi({
    dataDir,
    databaseUrl: target.api.databaseUrl,
    env: { RATE_LIMIT_MAX: '1000000', FLAG_HMAC_SECRET: 'bench' },
  });
  const stop = async () => {
    await api.stop();
    if (!target.api.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  disposers.add(stop);
  try {
    return await measureFromOwnProcess({
      baseURL: api.baseURL,
      cookie: `pe_session_token=${token}`,
      cases,
      connections: CONNECTIONS,
      warmupRounds: WARMUP,
      warmupPerConnection: CONCURRENT_WARMUP,
      perConnection: REQUESTS,
    });
  } finally {
    disposers.delete(stop);
    await stop();
  }
}

/** concurrent.ts in a child process (tsx as its loader, like the api): its timings. */
function measureFromOwnProcess(job: object): Promise<Timing[]> {
  const root = path.resolve(__dirname, '..', '..');
  const loader = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const preflight = path.join(root, 'node_modules', 'tsx', 'dist', 'preflight.cjs');
  const child = spawn(
    process.execPath,
    ['--require', preflight, '--import', loader, path.join(__dirname, 'concurrent.ts'), JSON.stringify(job)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(last) as Timing[]);
      else reject(new Error(`the concurrent measurement ended with code ${code}: ${out.slice(-500)}`));
    });
  });
}

function print(reports: Report[]): boolean {
  console.log(
    `\n== api benchmark: tasks lists, ${count(TOTAL)} tasks loaded; ${REQUESTS} sequential requests per case after ${WARMUP} warm-up rounds ==`,
  );
  let allWithin = true;
  const summary: string[][] = [];
  for (const r of reports) {
    console.log(
      `\n${r.label}\n  Acme Corp: ${count(r.load.acmeTasks)} tasks of ${count(r.load.tasks)}; project "${r.load.acmeProjects[0].title}": ${count(r.projectTopLevel)} top-level tasks (${count(r.projectPages)} pages of ${PAGE})\n`,
    );
    console.log(
      table(
        ['case', 'p50 ms', 'p99 ms'],
        r.timings.map((t) => [t.name, ms(t.p50), ms(t.p99)]),
      )
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
    for (const [list, firstIndex] of [
      ['company tasks (keyset)', 0],
      ['project tasks (page)', 2],
    ] as const) {
      const first = r.timings[firstIndex];
      const deep = r.timings[firstIndex + 1];
      const ratio = deep.p50 / first.p50;
      const within = ratio <= RATIO_LIMIT;
      allWithin &&= within;
      summary.push([
        r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
        list,
        ms(first.p50),
        ms(deep.p50),
        `${ratio.toFixed(2)}x`,
        `${(deep.p99 / first.p99).toFixed(2)}x`,
        within ? 'yes' : 'NO',
      ]);
    }
  }
  console.log(`\nDeep page / first page (p50; p99 for reference), limit ${RATIO_LIMIT}x:\n`);
  console.log(
    table(
      ['database', 'list', 'first p50', 'deep p50', 'ratio p50', 'ratio p99', `within ${RATIO_LIMIT}x`],
      summary,
      2,
    ),
  );
  console.log(
    allWithin
      ? `\nEvery deep page is within ${RATIO_LIMIT}x of its first page.`
      : `\nNOT every deep page is within ${RATIO_LIMIT}x of its first page.`,
  );

  // The budget: p99 of every task list case with CONNECTIONS connections at once.
  const budgetRows: string[][] = [];
  let withinBudget = true;
  for (const r of reports) {
    const budget = P99_BUDGET_MS[r.dialect];
    for (const t of r.concurrent) {
      const ok = t.p99 <= budget;
      withinBudget &&= ok;
      budgetRows.push([
        r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
        t.name,
        String(t.samples),
        ms(t.p50),
        ms(t.p99),
        `${budget}`,
        `${(t.p99 / budget).toFixed(2)}`,
        ok ? 'yes' : 'NO',
      ]);
    }
  }
  console.log(
    `\nWith ${CONNECTIONS} connections at once (${REQUESTS} requests each), p99 budget ${P99_BUDGET_MS.sqlite} ms on SQLite, ${P99_BUDGET_MS.postgres} ms on PostgreSQL:\n`,
  );
  console.log(
    table(['database', 'case', 'requests', 'p50 ms', 'p99 ms', 'budget ms', 'ratio', 'within'], budgetRows, 2),
  );
  console.log(withinBudget ? '\nEvery case is within its p99 budget.' : '\nNOT every case is within its p99 budget.');
  return allWithin && withinBudget;
}

async function main() {
  // whole rounds of the load's pattern (ten companies, four parts); enough rows for full pages
  if (!Number.isInteger(TOTAL) || TOTAL < 40_000 || TOTAL % 40 !== 0)
    throw new Error('--tasks must be a multiple of 40, at least 40,000');
  if (!Number.isInteger(REQUESTS) || REQUESTS < 1) throw new Error('--requests must be a positive whole number');
  const started = performance.now();
  const reports: Report[] = await onEachTarget(ONLY, bench);
  const ok = print(reports);
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
