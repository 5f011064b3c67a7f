import { portalConfigSchema } from '@portal/shared/core/schemas';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, makeTempDir, type TestApp } from '../../../../test/app';
import { repoDeclarations } from '../../../../test/remotes';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { BRAND_NAME: 'Acme Assurance', API_VERSION: '2.0.1', UI_VERSION: '3.4.5' },
  });
});
afterAll(() => t.close());

describe('GET /api/v1/portal-config', () => {
  it('answers the configured brand and versions to anyone, never from a stale cache', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/portal-config' });
    expect(res.statusCode).toBe(200);
    expect(portalConfigSchema.parse(res.json())).toEqual({
      brandName: 'Acme Assurance',
      apiVersion: '2.0.1',
      uiVersion: '3.4.5',
      remotes: [],
    });
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toMatch(/cookie/i);
    expect(res.headers['x-api-version']).toBe('2.0.1');
    expect(res.headers['x-ui-version']).toBe('3.4.5');
  });

  it('stays public when the caller’s session cookie is stale', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/portal-config', cookie: 'pe_session_token=not-a-session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ brandName: 'Acme Assurance' });
  });
});

describe('the remotes of GET /api/v1/portal-config', () => {
  it('lists every remote of the manifest with its declaration to a signed-in user, none before sign-in', async () => {
    const app = await createTestApp();
    try {
      const declarations = repoDeclarations();
      // a client whose company has reports off still gets its declaration: the shell gates by company
      const res = await app.api({
        method: 'GET',
        url: '/api/v1/portal-config',
        cookie: await app.cookieFor('member@acme.test'),
      });
      const { remotes } = portalConfigSchema.parse(res.json());
      expect(remotes).toEqual(
        Object.keys(declarations)
          .sort()
          .map((name) => ({ name, ...declarations[name] })),
      );
      expect((await app.inject({ method: 'GET', url: '/api/v1/portal-config' })).json().remotes).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('adds a remote published later without anything else changing, and leaves out a broken declaration', async () => {
    const file = path.join(makeTempDir('portal-manifest-'), 'remotes.json');
    const app = await createTestApp({ env: { REMOTES_MANIFEST_FILE: file } });
    const cookie = await app.cookieFor('lead@acme.test');
    const remotesNow = async () =>
      portalConfigSchema
        .parse((await app.api({ method: 'GET', url: '/api/v1/portal-config', cookie })).json())
        .remotes.map((r) => r.name);
    try {
      fs.writeFileSync(file, JSON.stringify({ 'mfe-settings': '/remotes/mfe-settings/mf-manifest.json' }));
      expect(await remotesNow()).toEqual(['mfe-settings']);

      // a sixth remote's release, with its declaration beside its manifest
      const release = path.join(app.config.webRoot, 'releases', 'mfe-risks', '1.0.0-abc');
      fs.mkdirSync(release, { recursive: true });
      const risks = {
        module: 'risks',
        basePath: '/risks',
        nav: [{ key: 'risks', label: 'Risks', path: '/risks', icon: 'risks', order: 35 }],
      };
      fs.writeFileSync(path.join(release, 'portal-module.json'), JSON.stringify(risks));
      fs.writeFileSync(
        file,
        JSON.stringify({
          'mfe-settings': '/remotes/mfe-settings/mf-manifest.json',
          'mfe-risks': '/releases/mfe-risks/1.0.0-abc/mf-manifest.json',
        }),
      );
      expect(await remotesNow()).toEqual(['mfe-risks', 'mfe-settings']);

      // a declaration that is not one: the remote has no route, the others stay
      fs.writeFileSync(path.join(release, 'portal-module.json'), JSON.stringify({ ...risks, basePath: 'risks' }));
      fs.utimesSync(path.join(release, 'portal-module.json'), new Date(), new Date(Date.now() + 5_000));
      expect(await remotesNow()).toEqual(['mfe-settings']);
    } finally {
      await app.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('GET /api/v1/portal-config defaults', () => {
  it('says Tevora and dev when nothing is configured', async () => {
    const plain = await createTestApp({ seed: false });
    try {
      const res = await plain.inject({ method: 'GET', url: '/api/v1/portal-config' });
      expect(res.json()).toEqual({ brandName: 'Tevora', apiVersion: 'dev', uiVersion: 'dev', remotes: [] });
    } finally {
      await plain.close();
    }
  });
});
