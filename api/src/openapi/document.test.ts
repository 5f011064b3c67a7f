/**
 * The OpenAPI document matches the routes the app registered: every route is described (with its
 * path parameters, its input schemas and its policy) and nothing is described that is not a route.
 * The docs page and openapi.json are for signed-in staff only.
 */
import { createTestApp, type TestApp } from '../test/app';
import { OPERATIONS } from './operations';
import { RESULTS } from './results';
import { openApiDocument, openApiPath, type OpenApiDocument } from './document';

let t: TestApp;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestApp();
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
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      routes.map((key) => key.replace(/ .*/, '') + ' ' + openApiPath(key.replace(/^\S+ /, ''))).sort(),
    );
  });

  it('gives each operation its path parameters, a summary, a success answer and unique ids', () => {
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect({
          op: `${method} ${path}`,
          params: op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
        }).toEqual({ op: `${method} ${path}`, params: names });
        expect(op.summary.length).toBeGreaterThan(5);
        expect(Object.keys(op.responses).some((s) => Number(s) < 400)).toBe(true);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
      }
    }
  });

  it('turns the shared schemas into JSON Schema for bodies and queries, and states who may call', () => {
    const create = doc.paths['/api/v1/companies/{id}/projects'].post;
    const body = create.requestBody!.content['application/json'].schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
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
    expect(json.json()).toMatchObject({
      openapi: '3.1.0',
      paths: expect.objectContaining({ '/api/v1/projects/{id}': expect.any(Object) }),
    });
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
    expect(Object.keys(row.properties)).toEqual(
      expect.arrayContaining(['id', 'status', 'assignees', 'subtaskCount', 'commentCount']),
    );
    expect(row.additionalProperties).toBe(false);
  });

  it('has a result schema for every operation that answers success with JSON, and for no other', () => {
    const answersJson = (key: string) => {
      const op = OPERATIONS[key];
      return !op.produces && Object.keys(op.responses).some((status) => Number(status) < 300 && Number(status) !== 204);
    };
    const keys = Object.keys(OPERATIONS);
    expect(keys.filter((key) => answersJson(key) && !RESULTS[key])).toEqual([]);
    expect(Object.keys(RESULTS).filter((key) => !keys.includes(key) || !answersJson(key))).toEqual([]);
    expect(Object.keys(RESULTS).length).toBeGreaterThan(120);
  });
});
