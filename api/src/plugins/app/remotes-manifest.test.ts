/**
 * /remotes.json: the remotes each user may mount, from a manifest that a broken REMOTES_MANIFEST_FILE
 * cannot take down (modules/web/remotes-manifest.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setUserModuleAccess } from '../../db/module-access';
import { remotesManifestSource } from '../../modules/web/remotes-manifest';
import { createTestApp, makeTempDir, type TestApp } from '../../test/app';
import { repoDeclarations } from '../../test/remotes';

const DEFAULT = {
  'mfe-projects': '/remotes/mfe-projects/mf-manifest.json',
  'mfe-requests': '/remotes/mfe-requests/mf-manifest.json',
  'mfe-settings': '/remotes/mfe-settings/mf-manifest.json',
  'mfe-reports': '/remotes/mfe-reports/mf-manifest.json',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function remotesAs(app: TestApp, email: string | null) {
  const headers = email ? { cookie: await app.cookieFor(email) } : undefined;
  return app.inject({ method: 'GET', url: '/remotes.json', headers });
}

describe('/remotes.json lists the remotes a user may mount', () => {
  it('lists none to a signed-out visitor', async () => {
    const res = await remotesAs(t, null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
  });

  it('lists every remote to staff, who see companies with every module on; per user, never shared by a cache', async () => {
    const res = await remotesAs(t, 'admin@demo.test');
    expect(res.json()).toEqual(DEFAULT);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toMatch(/cookie/i);
  });

  it('leaves out a remote whose module the user may not use in any of their companies, until it is turned on', async () => {
    const { 'mfe-reports': _reports, ...withoutReports } = DEFAULT;
    expect((await remotesAs(t, 'member@acme.test')).json()).toEqual(withoutReports);

    const { db } = t.database;
    const member = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'member@acme.test')
      .executeTakeFirstOrThrow();
    const acme = await db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Acme Corp')
      .executeTakeFirstOrThrow();
    await setUserModuleAccess(db, acme.id, member.id, 'reports', true);
    try {
      expect((await remotesAs(t, 'member@acme.test')).json()).toEqual(DEFAULT);
    } finally {
      await setUserModuleAccess(db, acme.id, member.id, 'reports', false);
    }
  });
});

describe('the manifest in force', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('portal-manifest-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is REMOTES_MANIFEST when set, each remote on another host gated by the declaration published beside it', async () => {
    // a host of remotes: two declarations; the third remote publishes none, a fourth a broken one
    const declarations = repoDeclarations();
    const cdn = http.createServer((req, res) => {
      const files: Record<string, unknown> = {
        '/p/portal-module.json': declarations['mfe-projects'],
        '/r/portal-module.json': declarations['mfe-reports'],
        '/b/portal-module.json': { ...declarations['mfe-reports'], module: 'everything' },
      };
      const body = files[req.url ?? ''];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(body ? JSON.stringify(body) : '');
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    const app = await createTestApp({
      env: {
        REMOTES_MANIFEST: JSON.stringify({
          'mfe-projects': `${origin}/p/mf-manifest.json`,
          'mfe-reports': `${origin}/r/mf-manifest.json`,
          'mfe-extra': `${origin}/x/mf-manifest.json`,
          'mfe-broken': `${origin}/b/mf-manifest.json`,
        }),
      },
    });
    try {
      // member@acme.test has reports off; a remote without a good declaration is listed to nobody
      expect((await remotesAs(app, 'member@acme.test')).json()).toEqual({
        'mfe-projects': `${origin}/p/mf-manifest.json`,
      });
      expect((await remotesAs(app, 'admin@demo.test')).json()).toEqual({
        'mfe-projects': `${origin}/p/mf-manifest.json`,
        'mfe-reports': `${origin}/r/mf-manifest.json`,
      });
    } finally {
      await app.close();
      cdn.close();
    }
  });

  it('is REMOTES_MANIFEST_FILE as it is now; a broken one leaves the last good one in force, never an error', async () => {
    const file = path.join(dir, 'remotes.json');
    const v1 = '/remotes/mfe-settings/mf-manifest.json?v=1';
    const v2 = '/remotes/mfe-settings/mf-manifest.json?v=2';
    fs.writeFileSync(file, JSON.stringify({ 'mfe-settings': v1 }));
    const app = await createTestApp({ env: { REMOTES_MANIFEST_FILE: file } });
    try {
      expect((await remotesAs(app, 'admin@demo.test')).json()).toEqual({ 'mfe-settings': v1 });
      fs.writeFileSync(file, JSON.stringify({ 'mfe-settings': v2 }));
      expect((await remotesAs(app, 'admin@demo.test')).json()).toEqual({ 'mfe-settings': v2 });

      for (const broken of ['{"Not A Name": 1}', '{"mfe-settings": ', '']) {
        fs.writeFileSync(file, broken);
        const res = await remotesAs(app, 'admin@demo.test');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ 'mfe-settings': v2 });
      }
      fs.rmSync(file);
      expect((await remotesAs(app, 'admin@demo.test')).json()).toEqual({ 'mfe-settings': v2 });
      // the page's Content-Security-Policy still allows the remotes of the manifest in force
      const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(page.statusCode).not.toBe(500);
    } finally {
      await app.close();
    }
  });
});

describe('remotesManifestSource', () => {
  const logs = () => {
    const lines: { level: string; message: string }[] = [];
    return {
      lines,
      log: {
        error: (_obj: unknown, message: string) => lines.push({ level: 'error', message }),
        info: (_obj: unknown, message: string) => lines.push({ level: 'info', message }),
      },
    };
  };

  it('starts from the built-in default when the file is broken from the start, and logs each new problem once', async () => {
    const dir = makeTempDir('portal-manifest-');
    const file = path.join(dir, 'remotes.json');
    try {
      const { lines, log } = logs();
      const source = remotesManifestSource({ remotesManifest: null, remotesManifestFile: file }, log as never);
      expect(await source.current()).toEqual(DEFAULT);
      expect(await source.current()).toEqual(DEFAULT);
      expect(lines).toEqual([
        {
          level: 'error',
          message:
            'REMOTES_MANIFEST_FILE cannot be read (ENOENT): the last good manifest (the built-in default) stays in force',
        },
      ]);

      fs.writeFileSync(file, '{"mfe-settings": 3}');
      expect(await source.current()).toEqual(DEFAULT);
      expect(lines.at(-1)?.message).toMatch(
        /^REMOTES_MANIFEST_FILE is not a map of remote name -> manifest URL \(mfe-settings: .+\): the last good manifest \(the built-in default\) stays in force$/,
      );

      fs.writeFileSync(file, '{"mfe-settings": "/s/mf-manifest.json"}');
      expect(await source.current()).toEqual({ 'mfe-settings': '/s/mf-manifest.json' });
      expect(lines.at(-1)).toEqual({ level: 'info', message: 'REMOTES_MANIFEST_FILE is good again: in force' });

      fs.writeFileSync(file, 'not json');
      expect(await source.current()).toEqual({ 'mfe-settings': '/s/mf-manifest.json' });
      expect(lines.at(-1)?.message).toBe(
        'REMOTES_MANIFEST_FILE is not JSON: the last good manifest (REMOTES_MANIFEST_FILE) stays in force',
      );
      expect(lines).toHaveLength(4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
