/**
 * bench/throughput (issue 32): how many authenticated task list pages a second the api answers, next
 * to fastify's hello world on the same machine, measured side by side in one run.
 *
 * Starts, each in a process of its own (two cores: each gets one, like a real deployment; the load
 * generator, autocannon, runs in this process):
 *  - fastify's hello world (`{ hello: 'world' }` on GET /, hello.ts) on a free port;
 *  - the real api as production starts it (api/src/server.ts, the default configuration, NODE_ENV
 *    production) on a fresh SQLite database that it migrates and seeds with the demo data, with its
 *    log on at the production level (info: two lines per request) written to a file, not a terminal.
 *    One setting differs from the defaults: RATE_LIMIT_MAX is raised to 1,000,000 so that the one
 *    session is not refused after 600 requests a minute (the limiter still counts every request).
 * Signs in as consultant@demo.test through the sign-in form, picks the project with the most top-level
 * tasks (adding tasks through the api until it has 25 if none has), then runs autocannon with 10
 * connections against GET / of the hello world and against the task list page as the web asks for it
 * (GET /api/v1/projects/:id/tasks?page=1&pageSize=25, session cookie, X-Portal-Client): a warm-up of
 * each, then hello and api taking turns, twice, keeping the best of each. Every request reads the
 * session and the page from the database: nothing is cached.
 *
 * Prints the req/s of both, the ratio, the page's bytes and rows; exits 1 when the ratio is under the
 * budget (0.05) or when any answer was not 200.
 *
 * Options: --duration=S (10 s per measurement), --warmup=S (2), --rounds=N (2), --connections=N (10),
 * --profile=DIR (the api runs with `--cpu-prof` into DIR; at the end, where its time went while the
 * task list was measured: profile.ts), --log=FILE (the api's log; default a file in the run's temp
 * directory, deleted at the end), --log-level=LEVEL (info, production's; another level shows what
 * logging costs).
 */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';
import autocannon from 'autocannon';
import { call, freePort, option, signInOrThrow, sleep, startApi, tempDir, type ApiProcess } from '../load/server';
import { summarizeProfile, type Window } from './profile';

const BUDGET = 0.05;
const USER = 'consultant@demo.test';
const PAGE_SIZE = 25;
const ROOT = path.resolve(__dirname, '..', '..');

const DURATION = Number(option('duration', '10'));
const WARMUP = Number(option('warmup', '2'));
const ROUNDS = Number(option('rounds', '2'));
const CONNECTIONS = Number(option('connections', '10'));
const PROFILE_DIR = option('profile', '');
const LOG_FILE = option('log', '');
/** The api's LOG_LEVEL: info is production's (api/src/logging.ts); another level measures what logging costs. */
const LOG_LEVEL = option('log-level', 'info');
if (!(DURATION > 0) || !(WARMUP >= 0) || !(ROUNDS >= 1) || !(CONNECTIONS >= 1)) {
  console.error(
    'Usage: bench:throughput [--duration=S] [--warmup=S] [--rounds=N] [--connections=N] [--profile=DIR] [--log=FILE] [--log-level=LEVEL]',
  );
  process.exit(2);
}

interface Target {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

interface Measurement {
  target: string;
  rps: number;
  /** The server process's processor time per request (user + system), µs; null where /proc is not there. */
  cpuUs: number | null;
  p50: number;
  p99: number;
  total: number;
}

/** A node process running `file` with tsx as its loader (as bench/load/server.ts starts the api). */
function startTs(file: string, env: Record<string, string>): ChildProcess {
  const loader = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const preflight = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'preflight.cjs');
  return spawn(process.execPath, ['--require', preflight, '--import', loader, file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitForOk(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}) before it answered`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** A process's processor time so far (user + system), ms, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The project of the signed-in user with the most top-level tasks, given tasks up to PAGE_SIZE if it has fewer. */
async function pickProject(baseURL: string, cookie: string): Promise<{ id: string; title: string; total: number }> {
  const get = async <T>(url: string): Promise<T> => {
    const answer = await call(baseURL, cookie, 'GET', url);
    if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return answer.json<T>();
  };
  let best: { id: string; title: string; total: number } | null = null;
  const companies = await get<{ results: { id: string }[] }>('/api/v1/companies?page=1&pageSize=100');
  for (const company of companies.results) {
    const projects = await get<{ results: { id: string; title: string; status: string }[] }>(
      `/api/v1/companies/${company.id}/projects?page=1&pageSize=100`,
    );
    for (const project of projects.results) {
      if (project.status === 'canceled') continue; // no tasks can be added to it
      const { total } = await get<{ total: number }>(`/api/v1/projects/${project.id}/tasks?page=1&pageSize=1`);
      if (!best || total > best.total) best = { id: project.id, title: project.title, total };
    }
  }
  if (!best) throw new Error(`${USER} sees no open project`);
  for (let n = best.total + 1; n <= PAGE_SIZE; n++) {
    const answer = await call(baseURL, cookie, 'POST', `/api/v1/projects/${best.id}/tasks`, {
      title: `Throughput benchmark task ${n}`,
    });
    if (answer.status !== 201) throw new Error(`Adding a task answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    best.total = n;
  }
  return best;
}

/** autocannon against one target; throws when an answer was not 2xx or a request failed. */
async function load(target: Target, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.headers,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${target.label}: ${result.non2xx} answers not 2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

const rate = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const dir = tempDir('portal-throughput-');
  const logFile = LOG_FILE || path.join(dir, 'api.log');
  if (PROFILE_DIR) {
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    // read by startApi (bench/load/server.ts)
    process.env.BENCH_API_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${path.resolve(PROFILE_DIR)}`;
  }
  let hello: ChildProcess | null = null;
  let api: ApiProcess | null = null;
  const cleanup = async () => {
    await Promise.allSettled([hello && stopChild(hello), api?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

  try {
    const helloPort = await freePort();
    hello = startTs(path.join(__dirname, 'hello.ts'), { PORT: String(helloPort) });
    const helloURL = `http://127.0.0.1:${helloPort}/`;
    await waitForOk(helloURL, hello);

    const apiPort = await freePort();
    console.log(`Starting the api (migrating and seeding a fresh SQLite database; log at ${LOG_LEVEL} in ${logFile})…`);
    api = await startApi({
      dataDir: dir,
      port: apiPort,
      logFile,
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
        LOG_LEVEL,
        // one session makes every request: 600 a minute (the default) would refuse all but the first 600
        RATE_LIMIT_MAX: '1000000',
      },
    });
    const cookie = await signInOrThrow(api.baseURL, USER);
    const project = await pickProject(api.baseURL, cookie);
    const pageUrl = `/api/v1/projects/${project.id}/tasks?page=1&pageSize=${PAGE_SIZE}`;
    const page = await call(api.baseURL, cookie, 'GET', pageUrl);
    if (page.status !== 200) throw new Error(`GET ${pageUrl} answered ${page.status}: ${page.body.slice(0, 300)}`);
    const rows = page.json<{ results: unknown[] }>().results.length;
    const bytes = Buffer.byteLength(page.body);
    if (rows !== PAGE_SIZE) throw new Error(`The page has ${rows} rows, not ${PAGE_SIZE}`);
    console.log(
      `Task list: "${project.title}" (${project.total} top-level tasks), page of ${rows} rows, ${bytes.toLocaleString('en-US')} bytes of JSON.`,
    );

    const helloTarget: Target = { label: 'hello world', url: helloURL };
    const apiTarget: Target = {
      label: 'task list',
      url: `${api.baseURL}${pageUrl}`,
      headers: { cookie, 'x-portal-client': 'web', accept: 'application/json' },
    };
    console.log(
      `autocannon, ${CONNECTIONS} connections: ${WARMUP} s warm-up of each, then ${ROUNDS} rounds of ${DURATION} s each, taking turns.`,
    );
    if (WARMUP > 0) {
      await load(helloTarget, WARMUP);
      await load(apiTarget, WARMUP);
    }
    const logBefore = fs.statSync(logFile).size;
    const measured: Measurement[] = [];
    const windows: Window[] = [];
    let apiRequests = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of [helloTarget, apiTarget]) {
        const pid = target === apiTarget ? api.child.pid : hello.pid;
        const from = process.hrtime.bigint();
        const cpuBefore = cpuMs(pid);
        const result = await load(target, DURATION);
        const cpuAfter = cpuMs(pid);
        if (target === apiTarget) {
          windows.push({ fromUs: Number(from / 1000n), toUs: Number(process.hrtime.bigint() / 1000n) });
          apiRequests += result.requests.total;
        }
        const m: Measurement = {
          target: target.label,
          // autocannon's `duration` is whole seconds, rounded up
          rps: result.requests.total / ((result.finish.getTime() - result.start.getTime()) / 1000),
          cpuUs:
            cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          total: result.requests.total,
        };
        measured.push(m);
        console.log(
          `  round ${round}, ${m.target.padEnd(11)} ${rate(m.rps).padStart(7)} req/s  (${rate(m.total)} requests, latency p50 ${m.p50} ms, p99 ${m.p99} ms${m.cpuUs === null ? '' : `, server ${Math.round(m.cpuUs)} µs of processor time per request`})`,
        );
      }
    }
    const logBytes = fs.statSync(logFile).size - logBefore;
    const best = (label: string) => Math.max(...measured.filter((m) => m.target === label).map((m) => m.rps));
    const helloRps = best(helloTarget.label);
    const apiRps = best(apiTarget.label);
    const ratio = apiRps / helloRps;
    const within = ratio >= BUDGET;
    console.log(`\nhello world:  ${rate(helloRps)} req/s (best of ${ROUNDS})`);
    console.log(
      `task list:    ${rate(apiRps)} req/s (best of ${ROUNDS}; ${rows} rows, ${bytes.toLocaleString('en-US')} bytes)`,
    );
    console.log(`ratio:        ${ratio.toFixed(3)} (budget ${BUDGET}: ${within ? 'within' : 'NOT within'})`);
    console.log(`api log:      ${Math.round(logBytes / Math.max(1, apiRequests))} bytes per task list request`);

    await api.stop();
    if (PROFILE_DIR) {
      const profiles = fs
        .readdirSync(PROFILE_DIR)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(PROFILE_DIR, f))
        // the main thread's profile is the largest (the others are of short-lived worker threads)
        .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
      if (profiles.length === 0) console.log(`\nNo .cpuprofile in ${PROFILE_DIR}`);
      else {
        console.log(`\nCPU profile of the api while the task list was measured (${profiles[0]}):`);
        console.log(summarizeProfile(profiles[0], windows));
        fs.writeFileSync(`${profiles[0]}.windows.json`, JSON.stringify(windows));
      }
    }
    process.exitCode = within ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
