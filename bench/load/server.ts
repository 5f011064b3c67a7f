/**
 * What the load and fault benchmarks share: the real api as a separate process (api/src/server.ts on a
 * free port, real HTTP), a fresh PostgreSQL database created and dropped by the run, and signing in
 * through the login form as a browser would (the session cookie comes back on a 303).
 */
import { spawn, type ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { pathToFileURL } from 'url';
import { sql } from 'kysely';
import { openDatabase } from '../../api/src/db/database';

const ROOT = path.resolve(__dirname, '..', '..');
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
/** The server of BENCH_DATABASE_URL (its database part is replaced by each run's fresh database). */
export const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** `--name N` or `--name=N` on the command line, else `fallback`. */
export function option(name: string, fallback: string): string {
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` && i + 1 < args.length) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return fallback;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  baseURL: string;
  port: number;
  child: ChildProcess;
  /** The last 20,000 characters the process wrote. */
  output(): string;
  /** Resolves when the process has exited (at once if it has). */
  exited(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 10 s. */
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

export interface ApiOptions {
  dataDir: string;
  /** PostgreSQL when set, else SQLite under dataDir. */
  databaseUrl?: string;
  redisUrl?: string;
  port?: number;
  env?: Record<string, string>;
  /**
   * The process's output (its log) goes to this file instead of a pipe to this process: a busy api's
   * log then costs this process nothing (bench/throughput, where the log is on at the production level).
   */
  logFile?: string;
}

/** Starts api/src/server.ts (migrates and seeds the demo data on an empty database) and waits for /health. */
export async function startApi(options: ApiOptions): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  let log = '';
  const logFd = options.logFile ? fs.openSync(options.logFile, 'a') : null;
  // tsx as a loader of this one node process: its cli would run the api in a child process of its
  // own, which a SIGKILL of the cli would leave running
  const loader = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const preflight = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'preflight.cjs');
  // BENCH_API_NODE_ARGS: extra node flags for the api, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to
  // profile it under the benchmark's load (node refuses --cpu-prof in NODE_OPTIONS)
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--require', preflight, '--import', loader, path.join(ROOT, 'api', 'src', 'server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        DATABASE_URL: options.databaseUrl ?? '',
        REDIS_URL: options.redisUrl ?? '',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        // no reminder sweep while measuring
        REQUEST_REMINDER_MINUTES: '0',
        ...options.env,
      },
      stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
    },
  );
  if (logFd !== null) fs.closeSync(logFd);
  const append = (d: Buffer) => {
    log += d.toString();
    if (log.length > 40_000) log = log.slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseURL = `http://127.0.0.1:${port}`;
  const api: ApiProcess = {
    baseURL,
    port,
    child,
    output: () => (options.logFile ? tail(options.logFile, 20_000) : log.slice(-20_000)),
    exited: () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exit),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The api exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${api.output()}`);
    try {
      const res = await fetch(`${baseURL}/api/v1/health`);
      await res.arrayBuffer();
      if (res.ok) return api;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await api.kill9();
  throw new Error(`The api did not become healthy within 120 s:\n${api.output()}`);
}

/** The last `chars` characters of a file ('' when it cannot be read). */
function tail(file: string, chars: number): string {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    try {
      const length = Math.min(size, chars);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return buffer.toString();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh PostgreSQL database on the server of PG_ADMIN_URL; `drop()` removes it (connections forced off). */
export async function createPostgresDatabase(
  prefix: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = openDatabase({ databaseUrl: PG_ADMIN_URL });
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const again = openDatabase({ databaseUrl: PG_ADMIN_URL });
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(again.db);
      } finally {
        await again.close();
      }
    },
  };
}

export interface SignIn {
  status: number;
  /** `pe_session_token=…` when signed in. */
  cookie: string | null;
  body: string;
}

/** The login form's POST (email and password together), with this origin as a browser sends it. */
export async function signIn(baseURL: string, email: string, password = DEMO_PASSWORD): Promise<SignIn> {
  const res = await fetch(`${baseURL}/auth/saml/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseURL },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const body = await res.text();
  const setCookies = res.headers.getSetCookie();
  const session = setCookies
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('pe_session_token=') && c.length > 'pe_session_token='.length);
  return { status: res.status, cookie: session ?? null, body };
}

export async function signInOrThrow(baseURL: string, email: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const result = await signIn(baseURL, email);
    if (result.status === 303 && result.cookie) return result.cookie;
    if (result.status === 429 && attempt < 5) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    throw new Error(`Sign-in of ${email} answered ${result.status}: ${result.body.slice(0, 300)}`);
  }
}

export interface Answer {
  status: number;
  ms: number;
  body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any -- callers name the shape they read
}

/** One api call as the web makes it: session cookie, X-Portal-Client and (for writes) Origin. */
export async function call(
  baseURL: string,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Answer> {
  const headers: Record<string, string> = { cookie, 'x-portal-client': 'web', accept: 'application/json' };
  if (method !== 'GET') headers.origin = baseURL;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const started = performance.now();
  const res = await fetch(`${baseURL}${url}`, { method, headers, body: payload, redirect: 'manual', signal });
  const text = await res.text();
  const ms = performance.now() - started;
  return { status: res.status, ms, body: text, json: () => JSON.parse(text) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
