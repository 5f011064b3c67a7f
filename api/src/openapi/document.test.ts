/**
 * The OpenAPI document matches the routes the app registered: every route is described (with its
 * path parameters, its input schemas and its policy) and nothing is described that is not a route.
 * The docs page and openapi.json are for signed-in staff only.
 */
import { createTestApp, type TestApp } from '../test/app';
import { OPERATIONS } from './operations';
import { taskListResult } from './results';
import { openApiDocument, openApiPath, type OpenApiDocument } from './document';

let t: TestApp;
let doc: OpenApiDocument;
beforeAll(async () => {
  // the result schemas' tests call every project, task and request: no rate limit in the way
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
  doc = openApiDocument(t.app.routePolicies, OPERATIONS, 'test');
});
afterAll(() => t.close());

const registered = () => t.app.routePolicies.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);

describe('the OpenAPI document', () => {
  it('describes every registered route, and only those', () => {
    const routes = registered();
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((key) => !OPERATIONS[key])).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((key) => !routes.includes(key))).toEqual([]);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(routes.map((key) => key.replace(/ .*/, '') + ' ' + openApiPath(key.replace(/^\S+ /, ''))).sort());
  });

  it('gives each operation its path parameters, a summary, a success answer and unique ids', () => {
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect({ op: `${method} ${path}`, params: op.parameters.filter((p) => p.in === 'path').map((p) => p.name) }).toEqual({ op: `${method} ${path}`, params: names });
        expect(op.summary.length).toBeGreaterThan(5);
        expect(Object.keys(op.responses).some((s) => Number(s) < 400)).toBe(true);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
      }
    }
  });

  it('turns the shared schemas into JSON Schema for bodies and queries, and states who may call', () => {
    const create = doc.paths['/api/v1/companies/{id}/projects'].post;
    const body = create.requestBody!.content['application/json'].schema as { properties: Record<string, unknown>; required: string[] };
    expect(body.properties).toHaveProperty('title');
    expect(body.required).toContain('title');
    expect(create.responses).toHaveProperty('401');
    expect(create.responses).toHaveProperty('404');
    expect(create.description).toMatch(/projects module/);
    const list = doc.paths['/api/v1/companies/{id}/projects'].get;
    expect(list.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'page']));
    const health = doc.paths['/api/v1/health'].get;
    expect(health.security).toEqual([]);
    expect(health.responses).not.toHaveProperty('401');
  });

  it('is served as openapi.json and as a page to staff, and to nobody else', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const json = await t.api({ method: 'GET', url: '/api/docs/openapi.json', cookie: admin });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ openapi: '3.1.0', paths: expect.objectContaining({ '/api/v1/projects/{id}': expect.any(Object) }) });
    const page = await t.api({ method: 'GET', url: '/api/docs', cookie: admin });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/api/v1/projects/{id}/tasks');

    const client = await t.cookieFor('member@acme.test');
    expect((await t.api({ method: 'GET', url: '/api/docs/openapi.json', cookie: client })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/docs', cookie: client })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/docs/openapi.json' })).statusCode).toBe(401);
    const signedOut = await t.api({ method: 'GET', url: '/api/docs' });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/auth/saml/login');
    expect(String(signedOut.headers['set-cookie'])).toContain('toUrl=%2Fapi%2Fdocs');
  });

  it('shows the success bodies of the operations with a result schema, field by field', () => {
    const list = doc.paths['/api/v1/projects/{id}/tasks'].get.responses['200'].content!['application/json'].schema as {
      properties: Record<string, { items?: { properties: Record<string, unknown>; additionalProperties?: boolean } }>;
      required: string[];
    };
    expect(list.required).toEqual(expect.arrayContaining(['results', 'total', 'page', 'pageSize']));
    const row = list.properties.results.items!;
    expect(Object.keys(row.properties)).toEqual(expect.arrayContaining(['id', 'status', 'assignees', 'subtaskCount', 'commentCount']));
    expect(row.additionalProperties).toBe(false);
    // an operation without one still documents JSON, with no schema
    expect(doc.paths['/api/v1/practices'].get.responses['200'].content!['application/json'].schema).toEqual({});
  });
});

describe('the result schemas', () => {
  /** Every operation with a result schema, called for every seeded project, task and request the caller sees. */
  async function answers(cookie: string): Promise<{ key: string; url: string; body: unknown }[]> {
    const db = t.database.db;
    const companies = (await db.selectFrom('companies').select('id').execute()).map((r) => r.id);
    const projects = await db.selectFrom('projects').select(['id', 'company_id']).execute();
    const tasks = await db.selectFrom('tasks').select(['id', 'project_id']).execute();
    const requests = await db.selectFrom('requests').select('id').execute();
    const controls = await db.selectFrom('controls').select(['id', 'project_id']).execute();
    const files = await db.selectFrom('files').select(['id', 'project_id']).execute();
    const calls: { key: string; url: string }[] = [
      ...companies.flatMap((c) => [
        { key: 'GET /api/v1/companies/:id/projects', url: `/api/v1/companies/${c}/projects?pageSize=100` },
        { key: 'GET /api/v1/companies/:id/projects/summary', url: `/api/v1/companies/${c}/projects/summary` },
        { key: 'GET /api/v1/companies/:id/tasks', url: `/api/v1/companies/${c}/tasks?limit=200` },
        { key: 'GET /api/v1/companies/:id/requests', url: `/api/v1/companies/${c}/requests?pageSize=100` },
      ]),
      ...projects.flatMap((p) => [
        { key: 'GET /api/v1/projects/:id', url: `/api/v1/projects/${p.id}` },
        { key: 'GET /api/v1/projects/:id/tasks', url: `/api/v1/projects/${p.id}/tasks?pageSize=100` },
        { key: 'GET /api/v1/projects/:id/controls', url: `/api/v1/projects/${p.id}/controls?pageSize=100` },
        { key: 'GET /api/v1/projects/:id/files', url: `/api/v1/projects/${p.id}/files?pageSize=100` },
      ]),
      ...controls.map((c) => ({ key: 'GET /api/v1/projects/:id/controls/:controlId', url: `/api/v1/projects/${c.project_id}/controls/${c.id}` })),
      ...files.map((f) => ({ key: 'GET /api/v1/projects/:id/files/:fileId', url: `/api/v1/projects/${f.project_id}/files/${f.id}` })),
      ...tasks.map((task) => ({ key: 'GET /api/v1/projects/:id/tasks/:taskId', url: `/api/v1/projects/${task.project_id}/tasks/${task.id}` })),
      ...requests.map((r) => ({ key: 'GET /api/v1/requests/:id', url: `/api/v1/requests/${r.id}` })),
    ];
    const out: { key: string; url: string; body: unknown }[] = [];
    for (const call of calls) {
      const res = await t.api({ method: 'GET', url: call.url, cookie });
      if (res.statusCode === 200) out.push({ ...call, body: res.json() });
    }
    return out;
  }

  it.each(['admin@demo.test', 'lead@acme.test'])('allow every real answer to %s', async (email) => {
    const seen = await answers(await t.cookieFor(email));
    // each operation answered at least once, so no schema goes unchecked
    const withResult = Object.keys(OPERATIONS).filter((key) => OPERATIONS[key].result);
    expect(new Set(seen.map((a) => a.key))).toEqual(new Set(withResult));
    const problems = seen.flatMap(({ key, url, body }) => {
      const checked = OPERATIONS[key].result!.safeParse(body);
      return checked.success ? [] : [`${url}: ${checked.error.issues[0].path.join('.')}: ${checked.error.issues[0].message}`];
    });
    expect(problems).toEqual([]);
  });

  it('refuse a body with a field missing, of another type or undocumented', async () => {
    const [task] = await t.database.db.selectFrom('tasks').select('project_id').where('parent_id', 'is', null).limit(1).execute();
    const res = await t.api({ method: 'GET', url: `/api/v1/projects/${task.project_id}/tasks`, cookie: await t.cookieFor('admin@demo.test') });
    const body = res.json() as { results: Record<string, unknown>[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(taskListResult.safeParse(body).success).toBe(true);
    const withRow = (change: (row: Record<string, unknown>) => void) => {
      const copy = structuredClone(body);
      change(copy.results[0]);
      return taskListResult.safeParse(copy).success;
    };
    expect(withRow((row) => delete row.commentCount)).toBe(false);
    expect(withRow((row) => (row.overdue = 'no'))).toBe(false);
    expect(withRow((row) => (row.status = 'DONE'))).toBe(false);
    expect(withRow((row) => (row.createdAt = 'yesterday'))).toBe(false);
    expect(withRow((row) => (row.secret = 1))).toBe(false);
  });
});
