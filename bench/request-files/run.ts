/**
 * bench/request-files: how long importing and exporting evidence requests takes (issue 8), over HTTP
 * against the real api on a fresh, seeded database (import: parse, resolve, one transaction of batched
 * inserts, history and notifications; export: the list query, the summaries, the file). For 1,000 and 5,000 requests,
 * each run into a company of its own with three client members, a team and two projects: the import
 * of a .csv, then the export as .csv and as .xlsx. Prints the median of the runs per case, with rows
 * per second. Then, while an import reads a file of the most rows a file may have (blank ones, which
 * it refuses after reading them all), GET /api/v1/health over and over: the p95 and the longest wait.
 * Exits 1 when importing 1,000 requests takes 3 s or more, or that p95 is 100 ms or more (the read
 * runs in a parse worker, so the event loop goes on answering).
 *
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL (or postgres://postgres@127.0.0.1:5432/postgres)
 * is reachable: each database runs in a child process of its own (the api's test app reads its
 * database from the environment once).
 *
 * Run: npm run bench:requests -w bench [-- --runs=N (3)] [-- --only=sqlite|postgres]
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MODULES, type ModuleName } from '@portal/shared/core/modules';
import { TASK_TRACKER_MAX_LINES } from '@portal/shared/core/practices';
import { addCompanyMember, insertCompany } from '../../api/src/db/companies';
import { insertProject } from '../../api/src/db/projects';
import { addTeamMember, insertTeam } from '../../api/src/db/teams';
import { insertUser } from '../../api/src/db/users';
import type { TestApp } from '../../api/src/test/app';
import { requestCsv, requestFileRow, type RequestFileNames } from '../../api/src/test/request-files';
import { count, ms, table } from '../api/measure';

function option(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

const RUNS = Number(option('runs', '3'));
const ONLY = option('only', '');
const SIZES = [1_000, 5_000];
const IMPORT_BUDGET_MS = 3000;
/** The p95 of health checks while an import reads a file of TASK_TRACKER_MAX_LINES rows. */
const HEALTH_BUDGET_MS = 100;
const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const perSecond = (rows: number, took: number) => count(Math.round(rows / (took / 1000)));

/** A company with three client members, a team of two of them and two projects: what the file's rows name. */
async function requestCompany(t: TestApp): Promise<{ id: string; names: RequestFileNames }> {
  const { db } = t.database;
  const suffix = randomUUID().slice(0, 8);
  const id = await insertCompany(db, {
    name: `Bench requests ${suffix}`,
    modulesAccess: Object.fromEntries(MODULES.map((m) => [m, true])) as Record<ModuleName, boolean>,
  });
  const emails = [1, 2, 3].map((n) => `bench-${n}-${suffix}@example.test`) as [string, string, string];
  const team = await insertTeam(db, id, 'Audit Team');
  for (const [n, email] of emails.entries()) {
    const userId = await insertUser(db, { email, firstName: `Bench${n + 1}`, lastName: 'Client' });
    await addCompanyMember(db, id, userId, 'member');
    if (n < 2) await addTeamMember(db, team, userId);
  }
  const projects: [string, string] = [`Bench project A ${suffix}`, `Bench project B ${suffix}`];
  for (const title of projects) await insertProject(db, { companyId: id, title, status: 'active' });
  return { id, names: { emails, team: 'Audit Team', projects } };
}

/** How long `work` takes, in ms. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** One database: each size RUNS times into a new company. Returns the table rows and the failures. */
async function benchDatabase(label: string): Promise<boolean> {
  // Imported here: the test app reads TEST_DATABASE_URL when it loads.
  const { createTestApp } = await import('../../api/src/test/app');
  const t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
  const rows: string[][] = [];
  let within = true;
  try {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const headers = { cookie: await t.cookieFor('consultant@demo.test'), 'x-portal-client': 'web', origin: base };
    /** Over HTTP, the whole body read; throws unless `status`. */
    const call = async (url: string, status: number, init: RequestInit = {}) => {
      const res = await fetch(`${base}${url}`, { ...init, headers });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== status)
        throw new Error(
          `${init.method ?? 'GET'} ${url} answered ${res.status}: ${body.toString('utf8').slice(0, 300)}`,
        );
      return body;
    };
    for (const size of SIZES) {
      const times = { import: [] as number[], csv: [] as number[], xlsx: [] as number[] };
      for (let run = 0; run < RUNS; run++) {
        const company = await requestCompany(t);
        const file = requestCsv(Array.from({ length: size }, (_, i) => requestFileRow(i, company.names)));
        const url = `/api/v1/companies/${company.id}/requests`;
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'bench.csv');
        times.import.push(await timed(() => call(`${url}/import`, 201, { method: 'POST', body: form })));
        for (const format of ['csv', 'xlsx'] as const)
          times[format].push(await timed(() => call(`${url}/export?format=${format}`, 200)));
      }
      for (const [name, values] of [
        ['import .csv', times.import],
        ['export .csv', times.csv],
        ['export .xlsx', times.xlsx],
      ] as const) {
        const took = median(values);
        rows.push([`${count(size)} requests: ${name}`, ms(took), perSecond(size, took)]);
      }
      if (size === 1_000 && median(times.import) >= IMPORT_BUDGET_MS) {
        within = false;
        console.error(
          `Over budget: importing 1,000 requests took ${ms(median(times.import))} ms (${IMPORT_BUDGET_MS} ms allowed)`,
        );
      }
    }
    // Health checks while a file of the most rows a file may have is read (refused at its end: blank rows).
    const company = await requestCompany(t);
    const blank = new FormData();
    blank.append('file', new Blob([`Title,Reference\n${',\n'.repeat(TASK_TRACKER_MAX_LINES - 1)}`]), 'blank.csv');
    let done = false;
    const importing = call(`/api/v1/companies/${company.id}/requests/import`, 400, {
      method: 'POST',
      body: blank,
    }).finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      latencies.push(await timed(() => call('/api/v1/health', 200)));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await importing;
    const sorted = latencies.sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1] ?? 0;
    rows.push([
      `health while ${count(TASK_TRACKER_MAX_LINES)} rows are read: p95 (longest)`,
      `${ms(p95)} (${ms(sorted.at(-1) ?? 0)})`,
      `${sorted.length} checks`,
    ]);
    if (p95 >= HEALTH_BUDGET_MS) {
      within = false;
      console.error(
        `Over budget: health checks p95 ${ms(p95)} ms while a file was read (${HEALTH_BUDGET_MS} ms allowed)`,
      );
    }
  } finally {
    await t.close();
  }
  console.log(`\nRequest files on ${label}, median of ${RUNS} runs\n`);
  console.log(table(['case', 'ms', 'rows/s'], rows));
  return within;
}

/** Runs this file again for one database, with its environment. */
function child(only: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv): boolean {
  const result = spawnSync(process.execPath, [...process.execArgv, __filename, `--only=${only}`, `--runs=${RUNS}`], {
    stdio: 'inherit',
    env,
  });
  return result.status === 0;
}

async function main() {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive whole number');
  if (ONLY === 'sqlite') process.exitCode = (await benchDatabase('SQLite')) ? 0 : 1;
  else if (ONLY === 'postgres') process.exitCode = (await benchDatabase('PostgreSQL')) ? 0 : 1;
  else {
    const { TEST_DATABASE_URL: _ignored, ...env } = process.env;
    const sqliteOk = child('sqlite', env);
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: PG_URL });
    let reachable = true;
    try {
      await client.connect();
    } catch (error) {
      reachable = false;
      console.log(
        `\nPostgreSQL skipped: cannot connect (${(error as Error).message}). Set BENCH_DATABASE_URL to a PostgreSQL database.`,
      );
    } finally {
      await client.end().catch(() => undefined);
    }
    const pgOk = reachable ? child('postgres', { ...env, TEST_DATABASE_URL: PG_URL }) : true;
    process.exitCode = sqliteOk && pgOk ? 0 : 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
