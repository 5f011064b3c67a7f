/**
 * bench/reports: are the reports (issue 9) fast on a large company? On SQLite and on PostgreSQL, each in
 * a fresh database (a temp dir; a new schema of BENCH_DATABASE_URL, dropped at the end): migrate, seed
 * the demo data, bulk-load 1,000,000 tasks (100,000 of them in Acme Corp, bench/api/load.ts), then
 * what the reports read on Acme's bench projects (controls, points of focus, task files and 20,000
 * requests, load.ts here). Starts the real api on 127.0.0.1, signs in as consultant@demo.test and
 * times, over keep-alive HTTP:
 *  - each report (status, requests, controls, workload) of all projects over all time, and of Acme's
 *    large project over the last 90 days;
 *  - the status report as a CSV, and the PDF of the whole report (all four reports in one file).
 * Prints p50/p99 per case against its budget: 1 s a report (so 4 s for the PDF, which builds four).
 * Exits 1 when a case's p50 is over its budget.
 *
 * Options: --tasks=N (1,000,000; a multiple of 40, at least 4,000), --rounds=N measured rounds (20,
 * after 3 warm-up rounds), --only=sqlite|postgres.
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import type { Kysely } from 'kysely';
import { REPORT_KINDS, REPORT_USES_PERIOD, type ReportKind } from '@portal/shared/core/reports';
import { buildApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { Dialect } from '../../api/src/db/database';
import { migrateToLatest } from '../../api/src/db/migrate';
import type { Database } from '../../api/src/db/schema';
import { seedIfEmpty } from '../../api/src/db/seed';
import { createSession } from '../../api/src/db/sessions';
import { loadTasks, type LoadResult } from '../api/load';
import { count, httpClient, measure, ms, table, type Case, type Client, type Timing } from '../api/measure';
import { disposers, onEachTarget, option, type Target } from '../api/targets';
import { loadReportData, type ReportDataResult } from './load';

const REPORT_BUDGET_MS = 1000;
const PERIOD_DAYS = 90;
const WARMUP = 3;
const USER = 'consultant@demo.test';

const TOTAL = Number(option('tasks', '1000000'));
const ROUNDS = Number(option('rounds', '20'));
const ONLY = option('only', '');

/** A measured case and what it may take. */
interface ReportCase extends Case {
  budgetMs: number;
}

interface Result {
  label: string;
  dialect: Dialect;
  load: LoadResult;
  data: ReportDataResult;
  timings: (Timing & { budgetMs: number })[];
}

async function idOf(
  db: Kysely<Database>,
  table: 'companies' | 'users',
  column: 'name' | 'email',
  value: string,
): Promise<string> {
  return (await db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id;
}

function secondsOf(timings: Record<string, number>): string {
  const total = Object.values(timings).reduce((a, b) => a + b, 0);
  const steps = Object.entries(timings).map(([step, s]) => `${step} ${s.toFixed(1)} s`);
  return `${total.toFixed(1)} s (${steps.join(', ')})`;
}

function daysBefore(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** An all-time report's headline figure, which must match the database. */
interface Answer {
  totals: Record<string, number>;
  people?: unknown[];
}

/**
 * The reports must count what was loaded, or the timings would measure empty answers: each all-time
 * report's headline figure against the database, and the files' first bytes.
 */
async function checkAnswers(
  db: Kysely<Database>,
  client: Client,
  acmeId: string,
  urls: Record<ReportKind | 'csv' | 'pdf', string>,
): Promise<void> {
  const counted = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  const checks: Record<ReportKind, { figure: (a: Answer) => number; expected: number }> = {
    status: {
      figure: (a) => a.totals.tasks,
      expected: await counted(
        db
          .selectFrom('tasks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', acmeId),
      ),
    },
    requests: {
      figure: (a) => a.totals.requests,
      // the consultant is staff: every request of the company
      expected: await counted(
        db
          .selectFrom('requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', acmeId),
      ),
    },
    controls: {
      figure: (a) => a.totals.controls,
      expected: await counted(
        db
          .selectFrom('controls')
          .innerJoin('projects', 'projects.id', 'controls.project_id')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('projects.company_id', '=', acmeId),
      ),
    },
    // someone has work: bench/api/load.ts gives every Acme task a client assignee
    workload: { figure: (a) => Math.min(1, a.people?.length ?? 0), expected: 1 },
  };
  for (const kind of REPORT_KINDS) {
    const figure = checks[kind].figure(JSON.parse((await client.get(urls[kind])).body) as Answer);
    if (figure !== checks[kind].expected)
      throw new Error(`the ${kind} report answered ${figure}, the database holds ${checks[kind].expected}`);
  }
  const csv = (await client.get(urls.csv)).body;
  if (!csv.includes('Tasks by status'))
    throw new Error(`the CSV export is not the status report: ${csv.slice(0, 100)}`);
  const pdf = (await client.get(urls.pdf)).body;
  if (!pdf.startsWith('%PDF-')) throw new Error(`the PDF is not a PDF: ${pdf.slice(0, 20)}`);
}

async function bench(target: Target): Promise<Result> {
  const { db, dialect } = target.database;
  console.log(`\n${target.label}: migrating, seeding, loading ${count(TOTAL)} tasks…`);
  await migrateToLatest(db, dialect);
  await seedIfEmpty(db);
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
  const now = Date.now();
  const load = await loadTasks(db, dialect, { total: TOTAL, acmeId, creatorId: userId, acmeAssignees, now });
  console.log(`  tasks loaded in ${secondsOf(load.timings)}`);
  const data = await loadReportData(db, dialect, {
    acmeId,
    projectIds: load.acmeProjects.map((p) => p.id),
    staffId: userId,
    assignees: acmeAssignees,
    now,
  });
  console.log(`  report data loaded in ${secondsOf(data.timings)}`);

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
    const { token } = await createSession(db, { userId, userAgent: 'bench/reports', maxHours: 2 });
    const client = httpClient(`http://127.0.0.1:${port}`, `pe_session_token=${token}`);

    // the page sends the browser's day; the server's UTC day is always within the tolerance
    const today = new Date().toISOString().slice(0, 10);
    const base = `/api/v1/companies/${acmeId}/reports`;
    const allTime = `today=${today}`;
    const project = load.acmeProjects[0];
    const period = `projectId=${project.id}&from=${daysBefore(today, PERIOD_DAYS - 1)}&to=${today}&today=${today}`;
    const urls = {
      ...(Object.fromEntries(REPORT_KINDS.map((kind) => [kind, `${base}/${kind}?${allTime}`])) as Record<
        ReportKind,
        string
      >),
      csv: `${base}/status/export?format=csv&${allTime}`,
      pdf: `${base}/pdf?${allTime}`,
    };
    await checkAnswers(db, client, acmeId, urls);

    const cases: ReportCase[] = [
      ...REPORT_KINDS.map((kind) => ({
        name: `${kind}, all projects, all time`,
        url: urls[kind],
        budgetMs: REPORT_BUDGET_MS,
      })),
      ...REPORT_KINDS.map((kind) => ({
        // controls and workload are as of today: the period is sent but does not apply
        name: `${kind}, "${project.title}", ${REPORT_USES_PERIOD[kind] ? `last ${PERIOD_DAYS} days` : 'as of today'}`,
        url: `${base}/${kind}?${period}`,
        budgetMs: REPORT_BUDGET_MS,
      })),
      { name: 'status as CSV, all projects, all time', url: urls.csv, budgetMs: REPORT_BUDGET_MS },
      {
        name: `PDF (${REPORT_KINDS.length} reports), all projects, all time`,
        url: urls.pdf,
        budgetMs: REPORT_BUDGET_MS * REPORT_KINDS.length,
      },
    ];
    const timings = await measure(client, cases, ROUNDS, WARMUP);
    return {
      label: target.label,
      dialect,
      load,
      data,
      timings: timings.map((t, i) => ({ ...t, budgetMs: cases[i].budgetMs })),
    };
  } finally {
    disposers.delete(closeApp);
    await closeApp();
  }
}

function print(results: Result[]): boolean {
  console.log(
    `\n== reports benchmark: ${count(TOTAL)} tasks loaded; ${ROUNDS} sequential requests per case after ${WARMUP} warm-up rounds ==`,
  );
  let allWithin = true;
  for (const r of results) {
    const d = r.data;
    console.log(
      `\n${r.label}\n  Acme Corp: ${count(r.load.acmeTasks)} tasks of ${count(r.load.tasks)}; ${count(d.controls)} controls (${count(d.pointsOfFocus)} points of focus, ` +
        `${count(d.controlTasks)} task links), ${count(d.taskFiles)} task files, ${count(d.requests)} requests\n`,
    );
    const rows = r.timings.map((t) => {
      const within = t.p50 <= t.budgetMs;
      allWithin &&= within;
      return [
        t.name,
        ms(t.p50),
        ms(t.p99),
        count(t.budgetMs),
        `${(t.p50 / t.budgetMs).toFixed(2)}x`,
        within ? 'yes' : 'NO',
      ];
    });
    console.log(
      table(['case', 'p50 ms', 'p99 ms', 'budget ms', 'p50 / budget', 'within'], rows)
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }
  console.log(allWithin ? '\nEvery case is within its budget.' : '\nNOT every case is within its budget.');
  return allWithin;
}

async function main() {
  // whole rounds of the task load's pattern (ten companies, four parts)
  if (!Number.isInteger(TOTAL) || TOTAL < 4_000 || TOTAL % 40 !== 0)
    throw new Error('--tasks must be a multiple of 40, at least 4,000');
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be a positive whole number');
  const started = performance.now();
  const results: Result[] = await onEachTarget(ONLY, bench);
  const ok = print(results);
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
