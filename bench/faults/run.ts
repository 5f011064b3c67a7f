/**
 * bench/faults (issue 10, "Faults"): the real api as a separate process, hurt on purpose.
 *
 * (a) kill -9 of the api (SQLite, one DATA_DIR throughout, restarted on it after each kill):
 *     - during a big multipart upload to a project folder: in mid-stream, and just as the body ends (the
 *       blob commit and the row's transaction race the kill);
 *     - during a requests import of a 5,000-row CSV, at several points of the transaction.
 *     After each restart: every file row (file_versions, request_files, transfer_files, system setting
 *     files) has its stored blob, of the size the row says; a blob without a row is never listed as a
 *     file (the folder's listing is the rows); an import's requests number 0 or all 5,000. At the end
 *     the storage sweep (grace 0, api stopped) removes the leftovers and every row still has its blob.
 * (b) PostgreSQL restart (`pg_ctlcluster <version> main restart`) while clients load the api: the api
 *     process stays up, answers errors during the window, and succeeds again once PostgreSQL is back,
 *     without a restart; the error window is printed; every task acknowledged meanwhile is in the database.
 * (c) Two api instances on one PostgreSQL database and one Redis: a session cookie from A works on B;
 *     sign-in failures count across both (3 on A + 2 on B, then the 6th attempt on B answers 429); the
 *     api limiter (RATE_LIMIT_MAX=20 here) counts a session's calls on A and B together.
 * Prints PASS/FAIL per check with figures; exits 1 when any fails.
 *
 * Options: --only a|b|c (all). BENCH_DATABASE_URL, BENCH_REDIS_URL as for bench:load; PG_CLUSTER
 * (`<version> main`, else the only version under /etc/postgresql).
 */
import { execFile } from 'child_process';
import fs from 'fs';
import http from 'http';
import path from 'path';
import { promisify } from 'util';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../api/src/db/database';
import type { Database } from '../../api/src/db/schema';
import { referencedStorageKeys } from '../../api/src/db/storage-keys';
import { filesDir, LocalDiskStorage } from '../../api/src/lib/storage';
import { count } from '../api/measure';
import {
  call,
  createPostgresDatabase,
  option,
  REDIS_URL,
  signIn,
  signInOrThrow,
  sleep,
  startApi,
  tempDir,
  type ApiProcess,
} from '../load/server';

const run = promisify(execFile);
const ONLY = option('only', 'abc');
const MB = 1024 * 1024;

interface Check {
  name: string;
  ok: boolean;
  figures: string;
}
const checks: Check[] = [];
function report(name: string, ok: boolean, figures: string) {
  checks.push({ name, ok, figures });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${figures}`);
}

// ------------------------------------------------------------------------------------------------
// (a) kill -9 during an upload and during an import

interface ProjectRow {
  id: string;
  status: string;
  permissions?: { write?: boolean };
}

interface Acme {
  companyId: string;
  projectId: string;
  folderId: string;
}

async function acmeOf(api: ApiProcess, cookie: string): Promise<Acme> {
  const companies = (await call(api.baseURL, cookie, 'GET', '/api/v1/companies')).json().results as {
    id: string;
    name: string;
  }[];
  const companyId = companies.find((c) => c.name === 'Acme Corp')!.id;
  const projects = (await call(api.baseURL, cookie, 'GET', `/api/v1/companies/${companyId}/projects`)).json()
    .results as ProjectRow[];
  const project = projects.find((p) => p.status !== 'canceled' && p.permissions?.write);
  if (!project) throw new Error('consultant@demo.test can write no project of Acme Corp');
  const folders = (await call(api.baseURL, cookie, 'GET', `/api/v1/projects/${project.id}/folders`)).json().results as {
    id: string;
  }[];
  return { companyId, projectId: project.id, folderId: folders[0].id };
}

/**
 * Streams a multipart upload of `bytes` to the folder. `killAt`: 'mid' kills the api when half is sent;
 * 'commit' kills it the moment the staged blob leaves the staging folder (the blob committed, its row's
 * transaction not yet: the narrowest window there is).
 */
function upload(
  api: ApiProcess,
  cookie: string,
  acme: Acme,
  name: string,
  bytes: number,
  killAt: 'mid' | 'commit',
  dataDir: string,
): Promise<{ status: number | string; sent: number; killedOnCommit: boolean }> {
  let killedOnCommit = false;
  let watcher: fs.FSWatcher | null = null;
  if (killAt === 'commit') {
    const staging = path.join(filesDir(dataDir), '.staging');
    fs.mkdirSync(staging, { recursive: true });
    watcher = fs.watch(staging, (_event, file) => {
      if (file && !fs.existsSync(path.join(staging, file.toString()))) {
        killedOnCommit = true;
        api.child.kill('SIGKILL');
        watcher?.close();
      }
    });
  }
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${acme.folderId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB, 0x61);
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const done = (status: number | string) => {
      if (!settled) {
        settled = true;
        watcher?.close();
        resolve({ status, sent, killedOnCommit });
      }
    };
    const req = http.request(`${api.baseURL}/api/v1/projects/${acme.projectId}/files`, {
      method: 'POST',
      headers: {
        cookie,
        origin: api.baseURL,
        'x-portal-client': 'web',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + bytes + tail.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', (e) => done((e as NodeJS.ErrnoException).code ?? e.message));
    req.write(head);
    const pump = () => {
      while (sent < bytes) {
        if (killAt === 'mid' && sent >= bytes / 2) {
          void api.kill9();
          return;
        }
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

function csvOfRequests(tag: string, rows: number): Buffer {
  const lines = ['Title,Description,Priority,Due Date'];
  for (let i = 1; i <= rows; i++)
    lines.push(
      `Fault import ${tag} row ${i},Imported by bench:faults,low,2027-01-${String((i % 28) + 1).padStart(2, '0')}`,
    );
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

async function importRequests(
  api: ApiProcess,
  cookie: string,
  acme: Acme,
  csv: Buffer,
  killAfterMs: number | null,
): Promise<{ status: number | string; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'requests.csv');
  const started = performance.now();
  const timer = killAfterMs === null ? null : setTimeout(() => void api.kill9(), killAfterMs);
  try {
    const res = await fetch(`${api.baseURL}/api/v1/companies/${acme.companyId}/requests/import`, {
      method: 'POST',
      headers: { cookie, origin: api.baseURL, 'x-portal-client': 'web' },
      body: form,
    });
    const text = await res.text();
    if (res.status !== 201) console.log(`      import answered ${res.status}: ${text.slice(0, 300)}`);
    return { status: res.status, ms: performance.now() - started };
  } catch (error) {
    return {
      status: ((error as { cause?: NodeJS.ErrnoException }).cause?.code ?? (error as Error).message) as string,
      ms: performance.now() - started,
    };
  } finally {
    // a kill still pending when the answer came: the caller restarts the api either way
    void timer;
  }
}

/** Every blob-bearing row, and the blobs on disk. */
async function storageState(db: Kysely<Database>, dataDir: string) {
  const root = filesDir(dataDir);
  const rows: { table: string; key: string; size: number }[] = [];
  for (const r of await db.selectFrom('file_versions').select(['storage_key', 'size']).execute())
    rows.push({ table: 'file_versions', key: r.storage_key, size: Number(r.size) });
  for (const r of await db.selectFrom('request_files').select(['storage_key', 'size']).execute())
    rows.push({ table: 'request_files', key: r.storage_key, size: Number(r.size) });
  for (const r of await db.selectFrom('transfer_files').select(['storage_key', 'size']).execute())
    rows.push({ table: 'transfer_files', key: r.storage_key, size: Number(r.size) });
  for (const r of await db.selectFrom('system_setting_files').select(['storage_key']).execute())
    rows.push({ table: 'system_setting_files', key: r.storage_key, size: -1 });
  const blobs = new Map<string, number>();
  for (const shard of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const key of fs.readdirSync(path.join(root, shard)))
      blobs.set(key, fs.statSync(path.join(root, shard, key)).size);
  }
  const staging = path.join(root, '.staging');
  const staged = fs.existsSync(staging) ? fs.readdirSync(staging).length : 0;
  const referenced = new Set(rows.map((r) => r.key));
  const rowsWithoutBlob = rows.filter((r) => !blobs.has(r.key));
  const wrongSize = rows.filter((r) => r.size >= 0 && blobs.has(r.key) && blobs.get(r.key) !== r.size);
  const orphanBlobs = [...blobs.keys()].filter((k) => !referenced.has(k));
  return { rows: rows.length, blobs: blobs.size, staged, rowsWithoutBlob, wrongSize, orphanBlobs };
}

async function faultsA(): Promise<void> {
  console.log('\n=== (a) kill -9 during an upload and during an import (SQLite, same DATA_DIR across restarts) ===');
  const dataDir = tempDir('portal-faults-a-');
  const sqlitePath = path.join(dataDir, 'portal.sqlite');
  const env = { UPLOAD_MAX_BYTES: String(2 * 1024 * MB), STORAGE_SWEEP_GRACE_MINUTES: '1' };
  let api = await startApi({ dataDir, env });
  try {
    let cookie = await signInOrThrow(api.baseURL, 'consultant@demo.test');
    const acme = await acmeOf(api, cookie);
    const listed = async (name: string) => {
      const a = await call(
        api.baseURL,
        cookie,
        'GET',
        `/api/v1/projects/${acme.projectId}/files?folderId=${acme.folderId}&search=${encodeURIComponent(name)}&pageSize=100`,
      );
      if (a.status !== 200) throw new Error(`listing files answered ${a.status}: ${a.body.slice(0, 200)}`);
      return (a.json().results as { name: string; size?: number }[]).filter((f) => f.name === name);
    };
    const restart = async () => {
      // the kill may have come after the work was done: kill now (a restart on the same data either way)
      await api.kill9();
      api = await startApi({ dataDir, env });
      cookie = await signInOrThrow(api.baseURL, 'consultant@demo.test');
    };
    const inspect = async (label: string, name: string | null, bytes: number) => {
      const database = openDatabase({ sqlitePath });
      try {
        const s = await storageState(database.db, dataDir);
        let rowOf = null as null | { size: number };
        if (name) {
          const r = await database.db
            .selectFrom('files')
            .innerJoin('file_versions', 'file_versions.file_id', 'files.id')
            .select(['file_versions.size'])
            .where('files.name', '=', name)
            .executeTakeFirst();
          rowOf = r ? { size: Number(r.size) } : null;
        }
        const inList = name ? (await listed(name)).length : 0;
        const consistent =
          s.rowsWithoutBlob.length === 0 &&
          s.wrongSize.length === 0 &&
          (name === null || (rowOf === null ? inList === 0 : rowOf.size === bytes && inList === 1));
        report(
          `(a) ${label}`,
          consistent,
          `${name ? (rowOf ? `file row present (${count(rowOf.size)} bytes, listed ${inList}x)` : `no file row, listed ${inList}x`) + '; ' : ''}` +
            `${count(s.rows)} blob rows, ${s.rowsWithoutBlob.length} without blob, ${s.wrongSize.length} of wrong size; ` +
            `${s.orphanBlobs.length} unreferenced blobs and ${s.staged} staged leftovers (not files: no row; swept after the grace)`,
        );
      } finally {
        await database.close();
      }
    };

    // Upload cut in mid-stream.
    {
      const bytes = 256 * MB;
      const name = `fault-upload-mid-${Date.now()}.bin`;
      const r = await upload(api, cookie, acme, name, bytes, 'mid', dataDir);
      console.log(`    upload of ${bytes / MB} MB killed after ${r.sent / MB} MB sent: client saw ${r.status}`);
      await restart();
      await inspect('upload killed mid-stream, after restart', name, bytes);
    }
    // Upload killed the moment its blob is committed (before or while its row is written).
    for (const attempt of [1, 2, 3]) {
      const bytes = 48 * MB;
      const name = `fault-upload-commit-${attempt}-${Date.now()}.bin`;
      const r = await upload(api, cookie, acme, name, bytes, 'commit', dataDir);
      console.log(
        `    upload of ${bytes / MB} MB, ${r.killedOnCommit ? 'killed as its blob left staging' : 'NOT killed (no commit seen)'}: client saw ${r.status}`,
      );
      await restart();
      await inspect(`upload killed at its blob's commit (#${attempt}), after restart`, name, bytes);
    }

    // Imports: one complete (timing and the all case), then kills inside it.
    const ROWS = 5000;
    const countOf = async (tag: string) => {
      const database = openDatabase({ sqlitePath });
      try {
        return Number(
          (
            await database.db
              .selectFrom('requests')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('title', 'like', `Fault import ${tag} row %`)
              .executeTakeFirstOrThrow()
          ).n,
        );
      } finally {
        await database.close();
      }
    };
    const full = await importRequests(api, cookie, acme, csvOfRequests('full', ROWS), null);
    const fullCount = await countOf('full');
    report(
      '(a) requests import, not killed',
      full.status === 201 && fullCount === ROWS,
      `answered ${full.status} in ${full.ms.toFixed(0)} ms, ${count(fullCount)} of ${count(ROWS)} rows present`,
    );
    // a warm import's time after a restart (the first one after start is slower): the kills land inside it
    const warm = await importRequests(api, cookie, acme, csvOfRequests(`warm-${Date.now().toString(36)}`, ROWS), null);
    console.log(`    a warm import of ${ROWS} rows: ${warm.status} in ${warm.ms.toFixed(0)} ms`);
    for (const f of [0.15, 0.3, 0.5, 0.7, 0.9]) {
      await importRequests(api, cookie, acme, csvOfRequests(`warmup-${Date.now().toString(36)}`, 50), null);
      const tag = `kill${Math.round(f * 100)}-${Date.now().toString(36)}`;
      const delay = Math.round(warm.ms * f);
      const r = await importRequests(api, cookie, acme, csvOfRequests(tag, ROWS), delay);
      await restart();
      const n = await countOf(tag);
      report(
        `(a) requests import killed at ${delay} ms (${Math.round(f * 100)}% of a warm import), after restart`,
        n === 0 || n === ROWS,
        `client saw ${r.status}; ${count(n)} of ${count(ROWS)} rows present (0 or all required)`,
      );
    }
    // The api still imports after all that (no lock or half state left behind).
    const again = await importRequests(api, cookie, acme, csvOfRequests('after', 10), null);
    report(
      '(a) import after the kills',
      again.status === 201 && (await countOf('after')) === 10,
      `answered ${again.status}`,
    );

    // The sweep (api stopped, no grace): leftovers go, rows keep their blobs.
    await api.stop();
    const database = openDatabase({ sqlitePath });
    try {
      const storage = new LocalDiskStorage(filesDir(dataDir));
      const swept = await storage.sweep({
        olderThanMs: 0,
        isReferenced: (keys) => referencedStorageKeys(database.db, keys),
      });
      const s = await storageState(database.db, dataDir);
      report(
        '(a) storage sweep after the kills',
        s.rowsWithoutBlob.length === 0 && s.orphanBlobs.length === 0 && s.staged === 0,
        `removed ${swept.staged} staged leftovers and ${swept.orphans} unreferenced blobs; now ${s.rows} rows, ${s.blobs} blobs, ${s.rowsWithoutBlob.length} rows without blob`,
      );
    } finally {
      await database.close();
    }
  } catch (error) {
    report('(a) ran', false, `${(error as Error).stack}\n${api.output()}`);
  } finally {
    await api.kill9();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------
// (b) PostgreSQL restart under load

function pgCluster(): string[] {
  if (process.env.PG_CLUSTER) return process.env.PG_CLUSTER.split(/\s+/);
  const versions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
  if (versions.length !== 1)
    throw new Error(
      `cannot tell the PostgreSQL cluster (/etc/postgresql holds ${versions.join(', ') || 'nothing'}): set PG_CLUSTER="<version> main"`,
    );
  return [versions[0], 'main'];
}

async function faultsB(): Promise<void> {
  console.log('\n=== (b) PostgreSQL restart while the api is under load ===');
  let cluster: string[];
  try {
    cluster = pgCluster();
  } catch (error) {
    report('(b) PostgreSQL restart', false, (error as Error).message);
    return;
  }
  const pg = await createPostgresDatabase('bench_faults_b');
  const dataDir = tempDir('portal-faults-b-');
  let api: ApiProcess | null = null;
  try {
    // six sessions calling back to back for 20 s would pass the api's 600 a minute each on a fast
    // machine: their 429s would be the limiter working, not the restart
    api = await startApi({ dataDir, databaseUrl: pg.url, redisUrl: REDIS_URL, env: { RATE_LIMIT_MAX: '1000000' } });
    const a = api;
    const pid = a.child.pid;
    const users = [
      'consultant@demo.test',
      'admin@demo.test',
      'consultant@demo.test',
      'admin@demo.test',
      'lead@acme.test',
      'member@acme.test',
    ];
    const cookies = [];
    for (const u of users) cookies.push(await signInOrThrow(a.baseURL, u));
    const acme = await acmeOf(a, cookies[0]);
    const events: { t: number; ok: boolean; status: number | string }[] = [];
    const acked: { id: string; title: string }[] = [];
    const t0 = Date.now();
    let stop = false;
    let seq = 0;
    const loop = async (cookie: string, writer: boolean) => {
      while (!stop) {
        const t = Date.now() - t0;
        try {
          let ans;
          if (writer && seq++ % 2 === 0) {
            const title = `Fault b task ${seq}-${t}`;
            ans = await call(
              a.baseURL,
              cookie,
              'POST',
              `/api/v1/projects/${acme.projectId}/tasks`,
              { title },
              AbortSignal.timeout(20_000),
            );
            if (ans.status === 201) acked.push({ id: ans.json().id, title });
          } else {
            ans = await call(
              a.baseURL,
              cookie,
              'GET',
              `/api/v1/projects/${acme.projectId}/tasks?pageSize=10`,
              undefined,
              AbortSignal.timeout(20_000),
            );
          }
          events.push({ t, ok: ans.status >= 200 && ans.status < 400, status: ans.status });
        } catch (error) {
          events.push({ t, ok: false, status: (error as Error).name });
        }
        await sleep(20);
      }
    };
    const loops = cookies.map((c, i) => loop(c, i < 4));
    await sleep(5000);
    const restartAt = Date.now() - t0;
    let restartNote = '';
    try {
      const out = await run('pg_ctlcluster', [...cluster, 'restart'], { timeout: 120_000 });
      restartNote = (out.stdout + out.stderr).trim();
    } catch (error) {
      restartNote = `pg_ctlcluster failed: ${(error as Error).message}`;
    }
    const backAt = Date.now() - t0;
    await sleep(15_000);
    stop = true;
    await Promise.all(loops);
    const failures = events.filter((e) => !e.ok);
    const first = failures[0]?.t;
    const last = failures.length ? failures[failures.length - 1].t : undefined;
    const after = events.filter((e) => e.t > backAt + 5000);
    const statuses = [...new Set(failures.map((e) => String(e.status)))].join(', ');
    const alive = a.child.exitCode === null && a.child.signalCode === null && a.child.pid === pid;
    const survived =
      alive && after.length > 0 && after.every((e) => e.ok) && !restartNote.startsWith('pg_ctlcluster failed');
    report(
      '(b) api survives a PostgreSQL restart and recovers without restarting',
      survived,
      `pg_ctlcluster ${cluster.join(' ')} restart from t=${(restartAt / 1000).toFixed(1)} s to t=${(backAt / 1000).toFixed(1)} s${restartNote ? ` (${restartNote})` : ''}; ` +
        `${count(events.length)} calls, ${count(failures.length)} failed (${statuses || 'none'})` +
        (failures.length
          ? `, error window t=${(first! / 1000).toFixed(2)}–${(last! / 1000).toFixed(2)} s (${((last! - first!) / 1000).toFixed(2)} s)`
          : '') +
        `; from 5 s after PostgreSQL was back: ${count(after.filter((e) => e.ok).length)}/${count(after.length)} ok; api process ${alive ? `still pid ${pid}` : 'GONE'}` +
        (survived ? '' : `\n  the api's last output:\n${a.output().slice(-4000)}`),
    );
    await a.stop();
    const database = openDatabase({ databaseUrl: pg.url });
    try {
      const ids = acked.map((x) => x.id);
      let present = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await database.db
          .selectFrom('tasks')
          .select(['id', 'title'])
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        const want = new Map(acked.map((x) => [x.id, x.title]));
        present += rows.filter((r) => want.get(r.id) === r.title).length;
      }
      report(
        '(b) tasks acknowledged around the restart are in the database',
        present === ids.length,
        `${count(present)} of ${count(ids.length)} present`,
      );
    } finally {
      await database.close();
    }
  } catch (error) {
    report('(b) ran', false, `${(error as Error).stack}\n${api?.output() ?? ''}`);
  } finally {
    await api?.kill9();
    fs.rmSync(dataDir, { recursive: true, force: true });
    // PostgreSQL may still be starting: retry the drop a little
    for (let i = 0; ; i++) {
      try {
        await pg.drop();
        break;
      } catch (error) {
        if (i >= 10) {
          console.log(`could not drop ${pg.name}: ${(error as Error).message}`);
          break;
        }
        await sleep(1000);
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// (c) two instances, one PostgreSQL database, one Redis

async function faultsC(): Promise<void> {
  console.log('\n=== (c) two api instances on one PostgreSQL database and one Redis ===');
  const pg = await createPostgresDatabase('bench_faults_c');
  const dirA = tempDir('portal-faults-c-a-');
  const dirB = tempDir('portal-faults-c-b-');
  let a: ApiProcess | null = null;
  let b: ApiProcess | null = null;
  const LIMIT = 20;
  const env = { RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '300' };
  try {
    a = await startApi({ dataDir: dirA, databaseUrl: pg.url, redisUrl: REDIS_URL, env });
    // B after A: A migrated and seeded the database
    b = await startApi({ dataDir: dirB, databaseUrl: pg.url, redisUrl: REDIS_URL, env });

    // Session from A on B.
    const cookie = await signInOrThrow(a.baseURL, 'consultant@demo.test');
    const onA = await call(a.baseURL, cookie, 'GET', '/api/v1/users/profile/me');
    const onB = await call(b.baseURL, cookie, 'GET', '/api/v1/users/profile/me');
    const emailOf = (x: typeof onA) => (x.status === 200 ? (x.json().email ?? x.json().user?.email ?? '?') : '-');
    report(
      '(c) a session cookie from A works on B',
      onA.status === 200 && onB.status === 200 && emailOf(onB) === emailOf(onA),
      `GET /users/profile/me with A's cookie: A ${onA.status} (${emailOf(onA)}), B ${onB.status} (${emailOf(onB)})`,
    );

    // Sign-in limit (5 failures per account per 15 min), counted in the shared database.
    const email = 'member@acme.test';
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(`A:${(await signIn(a.baseURL, email, 'Wrong-Passw0rd!')).status}`);
    for (let i = 0; i < 2; i++) seen.push(`B:${(await signIn(b.baseURL, email, 'Wrong-Passw0rd!')).status}`);
    const sixth = await signIn(b.baseURL, email);
    seen.push(`B(right password):${sixth.status}`);
    report(
      '(c) sign-in limit shared: 3 failures on A + 2 on B, the 6th attempt on B is refused',
      seen.slice(0, 5).every((s) => s.endsWith(':401')) && sixth.status === 429,
      seen.join(' '),
    );

    // Api limiter in Redis, per session: LIMIT calls split over A and B, then one more on B.
    const session = await signInOrThrow(b.baseURL, 'admin@demo.test');
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      answers.push((await call(i % 2 === 0 ? a.baseURL : b.baseURL, session, 'GET', '/api/v1/notifications')).status);
    const over = await call(b.baseURL, session, 'GET', '/api/v1/notifications');
    const remaining = await call(
      a.baseURL,
      await signInOrThrow(a.baseURL, 'lead@acme.test'),
      'GET',
      '/api/v1/notifications',
    );
    report(
      `(c) api rate limit shared through Redis (RATE_LIMIT_MAX=${LIMIT})`,
      answers.every((s) => s === 200) && over.status === 429 && remaining.status === 200,
      `${answers.filter((s) => s === 200).length}/${LIMIT} calls alternating A/B ok, call ${LIMIT + 1} on B answered ${over.status}; another session on A: ${remaining.status}`,
    );
  } catch (error) {
    report('(c) ran', false, `${(error as Error).stack}\nA:\n${a?.output() ?? ''}\nB:\n${b?.output() ?? ''}`);
  } finally {
    await a?.kill9();
    await b?.kill9();
    fs.rmSync(dirA, { recursive: true, force: true });
    fs.rmSync(dirB, { recursive: true, force: true });
    await pg.drop();
  }
}

async function main(): Promise<void> {
  if (ONLY.includes('a')) await faultsA();
  if (ONLY.includes('c')) await faultsC();
  if (ONLY.includes('b')) await faultsB();
  console.log('\nbench:faults');
  for (const c of checks) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}`);
  const ok = checks.length > 0 && checks.every((c) => c.ok);
  console.log(ok ? 'All checks passed.' : 'Some checks FAILED.');
  process.exit(ok ? 0 : 1);
}

void main();
