/**
 * bench/load (issue 10, "Load"): the real api as a separate process over real HTTP, first on a fresh
 * SQLite file, then on a fresh PostgreSQL database (created and dropped here) with REDIS_URL, each
 * migrated and seeded with the demo data by the api itself. N clients (50) sign in through the login
 * form as several demo users (staff and Acme client users; one session per client) and for S seconds
 * (60) run a weighted mix of reads and writes: projects, tasks (list, read, create, edit, move status,
 * comment), requests (list, read, create, comment), notifications and reports.
 *
 * Passes when no call answered anything but 2xx/3xx or 429 (a 429 is counted and the client backs off
 * briefly) and, after the api has stopped, every acknowledged write is in the database with the value
 * written: each created task / task comment / request / request comment by the id its 201 returned,
 * each task's last acknowledged status and title. Prints p50/p99 and count per endpoint, throughput,
 * and the 429s. Exits 1 on failure.
 *
 * Options: --seconds N (60), --clients N (50), --target sqlite|postgres|both (both).
 * Environment: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres: the server the fresh
 * database goes on), BENCH_REDIS_URL or REDIS_URL (redis://127.0.0.1:6379).
 */
import fs from 'fs';
import path from 'path';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../api/src/db/database';
import type { Database } from '../../api/src/db/schema';
import { count, ms, percentile, table } from '../api/measure';
import {
  call,
  createPostgresDatabase,
  option,
  REDIS_URL,
  signInOrThrow,
  sleep,
  startApi,
  tempDir,
  type Answer,
  type ApiProcess,
} from './server';

const SECONDS = Number(option('seconds', '60'));
const CLIENTS = Number(option('clients', '50'));
const TARGET = option('target', 'both');
if (!(SECONDS > 0) || !(CLIENTS > 0) || !['sqlite', 'postgres', 'both'].includes(TARGET)) {
  console.error('Usage: bench:load [--seconds N] [--clients N] [--target sqlite|postgres|both]');
  process.exit(2);
}

/** The demo users the clients sign in as (client i: USERS[i % n]); staff manage requests and write tasks. */
const USERS = [
  { email: 'admin@demo.test', staff: true },
  { email: 'consultant@demo.test', staff: true },
  { email: 'lead@acme.test', staff: false },
  { email: 'member@acme.test', staff: false },
  { email: 'sarah.kim@acme.test', staff: false },
  { email: 'both@acme.test', staff: false },
];
const COMPANY = 'Acme Corp';
const CALL_TIMEOUT_MS = 30_000;

type Op =
  | 'listProjects'
  | 'readProject'
  | 'listTasks'
  | 'readTask'
  | 'createTask'
  | 'moveTask'
  | 'editTask'
  | 'commentTask'
  | 'listRequests'
  | 'readRequest'
  | 'createRequest'
  | 'commentRequest'
  | 'notifications'
  | 'report';

const WEIGHTS: Record<Op, number> = {
  listProjects: 8,
  readProject: 8,
  listTasks: 12,
  readTask: 6,
  createTask: 8,
  moveTask: 8,
  editTask: 4,
  commentTask: 6,
  listRequests: 8,
  readRequest: 5,
  createRequest: 5,
  commentRequest: 5,
  notifications: 8,
  report: 3,
};

/** Task statuses a client walks its own tasks through (each move allowed by the status machine). */
const NEXT_STATUS: Record<string, string> = {
  OPEN: 'IN_PROGRESS',
  IN_PROGRESS: 'IN_REVIEW',
  IN_REVIEW: 'COMPLETED',
  COMPLETED: 'IN_PROGRESS',
};

interface Stat {
  samples: number[];
  ok: number;
  limited: number;
}

interface Failure {
  endpoint: string;
  detail: string;
}

/** What the api acknowledged: checked in the database after the run. */
interface Acked {
  tasks: Map<string, { status: string; title: string; projectId: string }>;
  taskComments: Map<string, { taskId: string; body: string }>;
  requests: Map<string, { title: string }>;
  requestComments: Map<string, { requestId: string; body: string }>;
  taskMoves: number;
  taskEdits: number;
}

class Run {
  readonly stats = new Map<string, Stat>();
  readonly failures: Failure[] = [];
  failureCount = 0;
  readonly acked: Acked = {
    tasks: new Map(),
    taskComments: new Map(),
    requests: new Map(),
    requestComments: new Map(),
    taskMoves: 0,
    taskEdits: 0,
  };
  stopAt = 0;
  /** Sessions that just got a 429: their client backs off. */
  readonly limited = new Set<string>();

  constructor(readonly api: ApiProcess) {}

  fail(endpoint: string, detail: string) {
    this.failureCount++;
    if (this.failures.length < 25) this.failures.push({ endpoint, detail });
  }

  /** One call, timed and counted under `endpoint`; null when it answered 429 or failed (recorded). */
  async do(cookie: string, endpoint: string, method: string, url: string, body?: unknown): Promise<Answer | null> {
    let stat = this.stats.get(endpoint);
    if (!stat) this.stats.set(endpoint, (stat = { samples: [], ok: 0, limited: 0 }));
    let answer: Answer;
    try {
      answer = await call(this.api.baseURL, cookie, method, url, body, AbortSignal.timeout(CALL_TIMEOUT_MS));
    } catch (error) {
      this.fail(
        endpoint,
        `${method} ${url}: network error ${(error as Error).name}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`,
      );
      return null;
    }
    if (answer.status === 429) {
      stat.limited++;
      this.limited.add(cookie);
      return null;
    }
    if (answer.status < 200 || answer.status >= 400) {
      this.fail(endpoint, `${method} ${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      return null;
    }
    stat.ok++;
    stat.samples.push(answer.ms);
    return answer;
  }
}

interface ClientState {
  index: number;
  email: string;
  staff: boolean;
  cookie: string;
  companyId: string;
  projects: { id: string; write: boolean }[];
  /** Tasks seen in lists (any project this client reads): for reads and comments. */
  seenTasks: { projectId: string; id: string }[];
  /** Tasks this client created: only it moves and edits them, so the last acknowledged value is final. */
  ownTasks: { projectId: string; id: string; status: string; title: string }[];
  seenRequests: string[];
  canRequests: boolean;
  canReports: boolean;
  ops: Op[];
  cumulative: number[];
  total: number;
  seq: number;
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];
const remember = <T>(list: T[], item: T, max = 200) => {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
};

/** Signs a client in and learns what it may do (its company's projects, modules). */
async function setUpClient(run: Run, index: number, cookie: string): Promise<ClientState> {
  const user = USERS[index % USERS.length];
  const base = run.api.baseURL;
  const must = async (url: string) => {
    const a = await call(base, cookie, 'GET', url);
    if (a.status !== 200)
      throw new Error(
        `setup of client ${index} (${user.email}): GET ${url} answered ${a.status}: ${a.body.slice(0, 300)}`,
      );
    return a.json();
  };
  const companies = (await must('/api/v1/companies')).results as { id: string; name: string }[];
  const company = companies.find((c) => c.name === COMPANY);
  if (!company) throw new Error(`setup: ${user.email} does not see ${COMPANY}`);
  const projects = (
    (await must(`/api/v1/companies/${company.id}/projects?pageSize=100`)).results as {
      id: string;
      status: string;
      permissions?: { write?: boolean };
    }[]
  )
    .filter((p) => p.status !== 'canceled')
    .map((p) => ({ id: p.id as string, write: Boolean(p.permissions?.write) }));
  if (projects.length === 0) throw new Error(`setup: ${user.email} sees no project of ${COMPANY}`);
  // Modules the company or the user may have off for this user: probed once, those ops left out if refused.
  const canRequests = (await call(base, cookie, 'GET', `/api/v1/companies/${company.id}/requests`)).status === 200;
  const canReports =
    (await call(base, cookie, 'GET', `/api/v1/companies/${company.id}/reports/options`)).status === 200;
  const state: ClientState = {
    index,
    email: user.email,
    staff: user.staff,
    cookie,
    companyId: company.id,
    projects,
    seenTasks: [],
    ownTasks: [],
    seenRequests: [],
    canRequests,
    canReports,
    ops: [],
    cumulative: [],
    total: 0,
    seq: 0,
  };
  const writable = projects.some((p) => p.write);
  for (const [op, weight] of Object.entries(WEIGHTS) as [Op, number][]) {
    if ((op === 'createTask' || op === 'moveTask' || op === 'editTask') && !writable) continue;
    if ((op === 'listRequests' || op === 'readRequest' || op === 'commentRequest') && !canRequests) continue;
    if (op === 'createRequest' && !(canRequests && user.staff)) continue;
    if (op === 'report' && !canReports) continue;
    state.ops.push(op);
    state.total += weight;
    state.cumulative.push(state.total);
  }
  return state;
}

function chooseOp(c: ClientState): Op {
  const r = Math.random() * c.total;
  return c.ops[c.cumulative.findIndex((x) => r < x)];
}

async function step(run: Run, c: ClientState): Promise<void> {
  let op = chooseOp(c);
  // what needs something to act on falls back to the call that finds it
  if ((op === 'readTask' || op === 'commentTask') && c.seenTasks.length === 0) op = 'listTasks';
  if ((op === 'moveTask' || op === 'editTask') && c.ownTasks.length === 0) op = 'createTask';
  if ((op === 'readRequest' || op === 'commentRequest') && c.seenRequests.length === 0) op = 'listRequests';
  const tag = `c${c.index}-${++c.seq}-${Date.now().toString(36)}`;
  const ck = c.cookie;
  switch (op) {
    case 'listProjects': {
      await run.do(ck, 'GET /companies/:id/projects', 'GET', `/api/v1/companies/${c.companyId}/projects`);
      return;
    }
    case 'readProject': {
      await run.do(ck, 'GET /projects/:id', 'GET', `/api/v1/projects/${pick(c.projects).id}`);
      return;
    }
    case 'listTasks': {
      const project = pick(c.projects);
      const a = await run.do(
        ck,
        'GET /projects/:id/tasks',
        'GET',
        `/api/v1/projects/${project.id}/tasks?pageSize=25&sort=-createdAt`,
      );
      if (a)
        for (const t of a.json().results as { id: string }[])
          remember(c.seenTasks, { projectId: project.id, id: t.id });
      return;
    }
    case 'readTask': {
      const t = pick(c.seenTasks);
      await run.do(ck, 'GET /projects/:id/tasks/:taskId', 'GET', `/api/v1/projects/${t.projectId}/tasks/${t.id}`);
      return;
    }
    case 'createTask': {
      const project = pick(c.projects.filter((p) => p.write));
      const title = `Load task ${tag}`;
      const a = await run.do(ck, 'POST /projects/:id/tasks', 'POST', `/api/v1/projects/${project.id}/tasks`, {
        title,
        description: 'Created by bench:load',
      });
      if (a) {
        const { id, status } = a.json() as { id: string; status: string };
        run.acked.tasks.set(id, { status, title, projectId: project.id });
        remember(c.ownTasks, { projectId: project.id, id, status, title }, 50);
        remember(c.seenTasks, { projectId: project.id, id });
      }
      return;
    }
    case 'moveTask': {
      const t = pick(c.ownTasks);
      const status = NEXT_STATUS[t.status] ?? 'IN_PROGRESS';
      const a = await run.do(
        ck,
        'POST /projects/:id/tasks/:taskId/status',
        'POST',
        `/api/v1/projects/${t.projectId}/tasks/${t.id}/status`,
        { status },
      );
      if (a) {
        const answered = (a.json() as { status: string }).status;
        if (answered !== status)
          run.fail('POST /projects/:id/tasks/:taskId/status', `task ${t.id}: asked ${status}, answer says ${answered}`);
        t.status = status;
        run.acked.tasks.get(t.id)!.status = status;
        run.acked.taskMoves++;
      }
      return;
    }
    case 'editTask': {
      const t = pick(c.ownTasks);
      const title = `Load task ${tag} (edited)`;
      const a = await run.do(
        ck,
        'PATCH /projects/:id/tasks/:taskId',
        'PATCH',
        `/api/v1/projects/${t.projectId}/tasks/${t.id}`,
        { title },
      );
      if (a) {
        t.title = title;
        run.acked.tasks.get(t.id)!.title = title;
        run.acked.taskEdits++;
      }
      return;
    }
    case 'commentTask': {
      const t = pick(c.seenTasks);
      const body = `Load comment ${tag}`;
      const a = await run.do(
        ck,
        'POST /projects/:id/tasks/:taskId/comments',
        'POST',
        `/api/v1/projects/${t.projectId}/tasks/${t.id}/comments`,
        { body },
      );
      if (a) run.acked.taskComments.set((a.json() as { id: string }).id, { taskId: t.id, body });
      return;
    }
    case 'listRequests': {
      const a = await run.do(ck, 'GET /companies/:id/requests', 'GET', `/api/v1/companies/${c.companyId}/requests`);
      if (a) for (const r of a.json().results as { id: string }[]) remember(c.seenRequests, r.id);
      return;
    }
    case 'readRequest': {
      await run.do(ck, 'GET /requests/:id', 'GET', `/api/v1/requests/${pick(c.seenRequests)}`);
      return;
    }
    case 'createRequest': {
      const title = `Load request ${tag}`;
      const a = await run.do(ck, 'POST /companies/:id/requests', 'POST', `/api/v1/companies/${c.companyId}/requests`, {
        title,
        description: 'Created by bench:load',
        priority: 'low',
      });
      if (a) {
        const id = (a.json() as { id: string }).id;
        run.acked.requests.set(id, { title });
        remember(c.seenRequests, id);
      }
      return;
    }
    case 'commentRequest': {
      const requestId = pick(c.seenRequests);
      const body = `Load comment ${tag}`;
      const a = await run.do(ck, 'POST /requests/:id/comments', 'POST', `/api/v1/requests/${requestId}/comments`, {
        body,
      });
      if (a) run.acked.requestComments.set((a.json() as { id: string }).id, { requestId, body });
      return;
    }
    case 'notifications': {
      await run.do(ck, 'GET /notifications', 'GET', '/api/v1/notifications');
      return;
    }
    case 'report': {
      const kind = pick(['status', 'requests']);
      await run.do(ck, `GET /companies/:id/reports/${kind}`, 'GET', `/api/v1/companies/${c.companyId}/reports/${kind}`);
      return;
    }
  }
}

async function clientLoop(run: Run, c: ClientState): Promise<void> {
  while (Date.now() < run.stopAt) {
    await step(run, c);
    // a 429: back off a little (the window's end may be up to a minute away; the other ops keep going)
    if (run.limited.delete(c.cookie)) await sleep(250 + Math.random() * 250);
  }
}

/** Every acknowledged write, read back from the database. */
async function verify(db: Kysely<Database>, acked: Acked): Promise<{ rows: string[][]; problems: string[] }> {
  const problems: string[] = [];
  const rows: string[][] = [];
  const chunks = <T>(list: T[], size = 500): T[][] =>
    Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

  let tasksOk = 0;
  for (const ids of chunks([...acked.tasks.keys()])) {
    const found = new Map(
      (
        await db.selectFrom('tasks').select(['id', 'status', 'title', 'project_id']).where('id', 'in', ids).execute()
      ).map((r) => [r.id, r]),
    );
    for (const id of ids) {
      const want = acked.tasks.get(id)!;
      const row = found.get(id);
      if (!row) problems.push(`task ${id} (${want.title}) is missing`);
      else if (row.status !== want.status || row.title !== want.title || row.project_id !== want.projectId)
        problems.push(
          `task ${id}: database has status ${row.status}, title "${row.title}"; acknowledged status ${want.status}, title "${want.title}"`,
        );
      else tasksOk++;
    }
  }
  rows.push(['tasks (created; last status and title)', count(acked.tasks.size), count(tasksOk)]);

  let commentsOk = 0;
  for (const ids of chunks([...acked.taskComments.keys()])) {
    const found = new Map(
      (await db.selectFrom('task_comments').select(['id', 'task_id', 'body']).where('id', 'in', ids).execute()).map(
        (r) => [r.id, r],
      ),
    );
    for (const id of ids) {
      const want = acked.taskComments.get(id)!;
      const row = found.get(id);
      if (!row) problems.push(`task comment ${id} is missing`);
      else if (row.body !== want.body || row.task_id !== want.taskId)
        problems.push(
          `task comment ${id}: body "${row.body}" on ${row.task_id}, acknowledged "${want.body}" on ${want.taskId}`,
        );
      else commentsOk++;
    }
  }
  rows.push(['task comments', count(acked.taskComments.size), count(commentsOk)]);

  let requestsOk = 0;
  for (const ids of chunks([...acked.requests.keys()])) {
    const found = new Map(
      (await db.selectFrom('requests').select(['id', 'title']).where('id', 'in', ids).execute()).map((r) => [r.id, r]),
    );
    for (const id of ids) {
      const want = acked.requests.get(id)!;
      const row = found.get(id);
      if (!row) problems.push(`request ${id} (${want.title}) is missing`);
      else if (row.title !== want.title)
        problems.push(`request ${id}: title "${row.title}", acknowledged "${want.title}"`);
      else requestsOk++;
    }
  }
  rows.push(['requests', count(acked.requests.size), count(requestsOk)]);

  let requestCommentsOk = 0;
  for (const ids of chunks([...acked.requestComments.keys()])) {
    const found = new Map(
      (
        await db.selectFrom('request_comments').select(['id', 'request_id', 'body']).where('id', 'in', ids).execute()
      ).map((r) => [r.id, r]),
    );
    for (const id of ids) {
      const want = acked.requestComments.get(id)!;
      const row = found.get(id);
      if (!row) problems.push(`request comment ${id} is missing`);
      else if (row.body !== want.body || row.request_id !== want.requestId)
        problems.push(
          `request comment ${id}: body "${row.body}" on ${row.request_id}, acknowledged "${want.body}" on ${want.requestId}`,
        );
      else requestCommentsOk++;
    }
  }
  rows.push(['request comments', count(acked.requestComments.size), count(requestCommentsOk)]);
  return { rows, problems };
}

interface TargetResult {
  label: string;
  ok: boolean;
}

async function runOn(
  label: string,
  api: ApiProcess,
  openDb: () => ReturnType<typeof openDatabase>,
): Promise<TargetResult> {
  const run = new Run(api);
  console.log(`\n=== ${label}: ${CLIENTS} clients, ${SECONDS} s ===`);

  // Sign in: one session per client, a few at a time (argon2 is slow on purpose).
  const started = performance.now();
  const cookies: string[] = new Array(CLIENTS);
  for (let i = 0; i < CLIENTS; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, CLIENTS - i) }, async (_, k) => {
        cookies[i + k] = await signInOrThrow(api.baseURL, USERS[(i + k) % USERS.length].email);
      }),
    );
  }
  const clients = await Promise.all(cookies.map((cookie, i) => setUpClient(run, i, cookie)));
  console.log(
    `Signed in ${CLIENTS} sessions (${USERS.map((u) => u.email).join(', ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const t0 = performance.now();
  run.stopAt = Date.now() + SECONDS * 1000;
  const progress = setInterval(() => {
    const done = [...run.stats.values()].reduce((n, s) => n + s.ok + s.limited, 0);
    process.stdout.write(
      `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${count(done)} calls, ${run.failureCount} failures, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`,
    );
  }, 10_000);
  await Promise.all(clients.map((c) => clientLoop(run, c)));
  clearInterval(progress);
  const elapsed = (performance.now() - t0) / 1000;

  const rows = [...run.stats.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, s]) => {
      const sorted = Float64Array.from(s.samples).sort();
      return [
        name,
        count(s.ok),
        count(s.limited),
        ms(percentile(sorted as unknown as number[], 50)),
        ms(percentile(sorted as unknown as number[], 99)),
      ];
    });
  const totalOk = [...run.stats.values()].reduce((n, s) => n + s.ok, 0);
  const total429 = [...run.stats.values()].reduce((n, s) => n + s.limited, 0);
  console.log(`\n${label}: per endpoint (ms)`);
  console.log(table(['endpoint', 'ok', '429', 'p50', 'p99'], rows));
  console.log(
    `\nTotal: ${count(totalOk)} successful calls in ${elapsed.toFixed(1)} s = ${(totalOk / elapsed).toFixed(1)} req/s; 429s: ${count(total429)}; other failures: ${run.failureCount}`,
  );
  for (const f of run.failures) console.log(`  FAILED ${f.endpoint}: ${f.detail}`);
  if (run.failureCount > run.failures.length)
    console.log(`  … and ${run.failureCount - run.failures.length} more failures`);

  // Stop the api (graceful: in-flight calls finish), then read every acknowledged write back.
  await api.stop();
  const database = openDb();
  let check: Awaited<ReturnType<typeof verify>>;
  try {
    check = await verify(database.db, run.acked);
  } finally {
    await database.close();
  }
  console.log(
    `\n${label}: acknowledged writes checked in the database (${count(run.acked.taskMoves)} status moves, ${count(run.acked.taskEdits)} title edits acknowledged)`,
  );
  console.log(table(['write', 'acknowledged', 'present with value'], check.rows));
  for (const p of check.problems.slice(0, 25)) console.log(`  MISMATCH ${p}`);
  if (check.problems.length > 25) console.log(`  … and ${check.problems.length - 25} more`);
  const ok = run.failureCount === 0 && check.problems.length === 0 && totalOk > 0;
  console.log(`\n${label}: ${ok ? 'PASS' : 'FAIL'}`);
  return { label, ok };
}

async function main(): Promise<void> {
  const results: TargetResult[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  process.on('SIGINT', () => {
    void Promise.allSettled(cleanups.map((c) => c())).then(() => process.exit(130));
  });
  try {
    if (TARGET !== 'postgres') {
      const dir = tempDir('portal-load-sqlite-');
      const api = await startApi({ dataDir: dir });
      const cleanup = async () => {
        await api.kill9();
        fs.rmSync(dir, { recursive: true, force: true });
      };
      cleanups.push(cleanup);
      try {
        results.push(
          await runOn(`SQLite (${path.join(dir, 'portal.sqlite')})`, api, () =>
            openDatabase({ sqlitePath: path.join(dir, 'portal.sqlite') }),
          ),
        );
      } catch (error) {
        console.log(`SQLite: FAIL: ${(error as Error).stack}\n${api.output()}`);
        results.push({ label: 'SQLite', ok: false });
      } finally {
        await cleanup();
        cleanups.splice(cleanups.indexOf(cleanup), 1);
      }
    }
    if (TARGET !== 'sqlite') {
      const pg = await createPostgresDatabase('bench_load');
      const dir = tempDir('portal-load-pg-');
      let api: ApiProcess | null = null;
      const cleanup = async () => {
        await api?.kill9();
        fs.rmSync(dir, { recursive: true, force: true });
        await pg.drop();
      };
      cleanups.push(cleanup);
      try {
        api = await startApi({ dataDir: dir, databaseUrl: pg.url, redisUrl: REDIS_URL });
        results.push(
          await runOn(`PostgreSQL (database ${pg.name}) + Redis`, api, () => openDatabase({ databaseUrl: pg.url })),
        );
      } catch (error) {
        console.log(`PostgreSQL: FAIL: ${(error as Error).stack}\n${api?.output() ?? ''}`);
        results.push({ label: 'PostgreSQL', ok: false });
      } finally {
        await cleanup();
        cleanups.splice(cleanups.indexOf(cleanup), 1);
      }
    }
  } catch (error) {
    console.log(`FAIL: ${(error as Error).stack}`);
    results.push({ label: 'setup', ok: false });
  }
  console.log(`\nbench:load: ${results.map((r) => `${r.label.split(' ')[0]} ${r.ok ? 'PASS' : 'FAIL'}`).join(', ')}`);
  process.exit(results.length > 0 && results.every((r) => r.ok) ? 0 : 1);
}

void main();
