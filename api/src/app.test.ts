/**
 * The app's tree (docs/adr/0011-api-tree-and-autoload.md): @fastify/autoload loads plugins/external,
 * plugins/app and routes. The routes registered are exactly the operations in shared (each at its own
 * path, whatever folder its file is in) and the few routes that are not operations; the plugins load
 * in the order their dependencies give.
 */
import type { Operation } from '@portal/shared/core/contract';
import * as companies from '@portal/shared/core/companies/api';
import * as files from '@portal/shared/core/files/api';
import * as interviews from '@portal/shared/core/interviews/api';
import * as notifications from '@portal/shared/core/notifications/api';
import * as portal from '@portal/shared/core/portal/api';
import * as practices from '@portal/shared/core/practices/api';
import * as projects from '@portal/shared/core/projects/api';
import * as reports from '@portal/shared/core/reports/api';
import * as requests from '@portal/shared/core/requests/api';
import * as users from '@portal/shared/core/users/api';
import { createTestApp, type TestApp } from './test/app';

const AREAS = { companies, files, interviews, notifications, portal, practices, projects, reports, requests, users };

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && 'method' in value && 'url' in value && 'responses' in value;

/** Every operation in shared/src/core/<area>/api.ts, as `METHOD /path`. */
const OPERATIONS = Object.values(AREAS).flatMap((area) =>
  Object.values(area)
    .filter(isOperation)
    .map((op) => `${op.method} ${op.url}`),
);

/** The routes that are not operations: the web's files and manifest (static-web), the docs page. */
const NOT_OPERATIONS = ['GET /*', 'GET /remotes.json', 'GET /api/docs', 'GET /api/docs/openapi.json'];

let t: TestApp;
const registered: string[] = [];
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) =>
      app.addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
      }),
  });
});
afterAll(() => t.close());

describe('the routes', () => {
  it('are the operations in shared, each at its own path, and the few that are not operations', () => {
    expect(OPERATIONS.length).toBeGreaterThan(150);
    expect(new Set(OPERATIONS).size).toBe(OPERATIONS.length);
    expect(registered.filter((key) => !key.startsWith('HEAD ')).sort()).toEqual(
      [...OPERATIONS, ...NOT_OPERATIONS].sort(),
    );
    // fastify's HEAD twins of the GET routes (a download opts out of its own)
    const heads = registered.filter((key) => key.startsWith('HEAD '));
    expect(heads.filter((key) => !registered.includes(`GET ${key.slice(5)}`))).toEqual([]);
  });

  it('answer at the exact path of an operation that is its folder, without a trailing-slash twin', async () => {
    // routes/api/v1/health/health.ts: GET /api/v1/health is the folder's own path
    expect((await t.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/v1/health/' })).statusCode).toBe(404);
  });
});

describe('the plugins', () => {
  /** The plugins' names in the order they were registered (fastify's plugin tree, depth first). */
  const order = () => [...t.app.printPlugins().matchAll(/[─┬] (\S+) \d+ ms/g)].map((m) => m[1]);
  const before = (first: string, then: string) => {
    const names = order();
    expect(names).toContain(first);
    expect(names).toContain(then);
    expect({ first, then, ok: names.indexOf(first) < names.indexOf(then) }).toEqual({ first, then, ok: true });
  };

  it('start with the start queue, then the third-party plugins, then ours', () => {
    const names = order();
    expect(names[0]).toBe('start-queue');
    for (const ours of ['auth', 'error-handler', 'csrf', 'policies', 'rate-limit', 'static-web'])
      before('@fastify/swagger', ours);
  });

  it('load ours in the order their dependencies give', () => {
    before('@fastify/cookie', 'auth');
    for (const later of ['canonical-host', 'csrf', 'rate-limit', 'policies', 'static-web'])
      before('error-handler', later);
    before('request-context', 'security-headers');
    before('security-headers', 'canonical-host');
    before('canonical-host', 'csrf');
    before('csrf', 'rate-limit');
    before('auth', 'rate-limit');
    before('auth', 'policies');
    before('mailer', 'request-reminders');
  });
});
