import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeTempDir } from './test/app';

jest.setTimeout(60_000);

const API_DIR = path.resolve(__dirname, '..');
const TSX_CLI = require.resolve('tsx/cli');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exit: Promise<number | null>;
} {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.REMOTES_MANIFEST;
  delete base.REMOTES_MANIFEST_FILE;
  const child = spawn(process.execPath, [TSX_CLI, 'src/server.ts'], {
    cwd: API_DIR,
    env: { ...base, ...env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exit };
}

async function waitForHealth(port: number, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe('server.ts', () => {
  it('starts on a fresh SQLite data dir, answers health, and exits 0 on SIGTERM', async () => {
    const dataDir = makeTempDir('portal-server-');
    const port = await freePort();
    const server = start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: dataDir });
    try {
      const res = await waitForHealth(port, Date.now() + 40_000);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', database: 'ok', apiVersion: 'dev' });
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(fs.existsSync(path.join(dataDir, 'portal.sqlite'))).toBe(true);
      expect(server.output().stdout).toContain(`Portal listening on http://localhost:${port}`);
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits non-zero with one clear line when PostgreSQL cannot be reached', async () => {
    const dataDir = makeTempDir('portal-server-');
    const server = start({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://postgres:s3cret-pw@127.0.0.1:1/nope',
    });
    try {
      expect(await server.exit).not.toBe(0);
      const lines = server
        .output()
        .stderr.split('\n')
        .filter((l) => l.trim() && !/^npm warn/.test(l));
      expect(lines).toEqual([
        expect.stringMatching(/^Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/nope: .*ECONNREFUSED/),
      ]);
      expect(server.output().stderr).not.toContain('s3cret-pw');
    } finally {
      server.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits non-zero naming an invalid variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exit).not.toBe(0);
    expect(server.output().stderr).toMatch(/Invalid configuration: PORT/);
  });
});
