/**
 * The OpenAPI document (`app.swagger()`, lib/openapi.ts) matches the routes the app registered:
 * every route is described from its operation (path parameters, input schemas, answers, policy) and
 * nothing is described that is not a route. Serving it (staff only) is tested in routes/api/docs.
 */
import type { Operation } from '@portal/shared/core/contract';
import { createTestApp, type TestApp } from '../test/app';
import { ANSWER_TESTS } from '../test/answers';
import { resultStatuses } from './contract';
import { openApiDocument, openApiPath, type OpenApiDocument } from './openapi';

let t: TestApp;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestApp();
  doc = openApiDocument(t.app);
});
afterAll(() => t.close());

const registered = () => t.app.routePolicies.filter((r) => r.method !== 'HEAD');
const keyOf = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
/** The operations of the registered routes, by `METHOD /path`. */
const operations = () => new Map(registered().flatMap((r) => (r.operation ? [[keyOf(r), r.operation] as const] : [])));

/** An operation that answers success with a JSON body (not 204, not a download, page or stream). */
const answersJson = (op: Operation) => !op.produces && resultStatuses(op).length > 0;

describe('the OpenAPI document', () => {
  it('describes every registered route, from its operation, and only those', () => {
    const routes = registered();
    expect(routes.length).toBeGreaterThan(150);
    // every route is registered from an operation (lib/contract.ts `route()`)
    expect(routes.filter((r) => !r.operation).map(keyOf)).toEqual([]);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${openApiPath(r.url)}`).sort());
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives each operation its path parameters, a summary, a success answer and unique ids', () => {
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect({
          op: `${method} ${path}`,
          params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
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
    expect((list.parameters ?? []).map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'page']));
    const health = doc.paths['/api/v1/health'].get;
    expect(health.security).toEqual([]);
    expect(health.responses).not.toHaveProperty('401');
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
    const ops = [...operations()];
    expect(ops.filter(([, op]) => answersJson(op) && !op.result).map(([key]) => key)).toEqual([]);
    expect(ops.filter(([, op]) => op.result && !answersJson(op)).map(([key]) => key)).toEqual([]);
    expect(ops.filter(([, op]) => op.result).length).toBeGreaterThan(120);
  });

  it('gives every JSON success answer its schema, on each success status', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const json = answer.content?.['application/json'];
          if (Number(status) < 300 && json && !Object.keys(json.schema).length)
            missing.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    // an operation with two success statuses: both carry the flag definition
    const save = doc.paths['/api/v1/feature-flags/{key}'].put.responses;
    expect(save['201'].content!['application/json'].schema).toEqual(save['200'].content!['application/json'].schema);
    expect(save['201'].content!['application/json'].schema).toHaveProperty('properties.key');
  });

  it('has every result schema checked against real answers by an answer test (test/answers.ts)', () => {
    const checked = Object.values(ANSWER_TESTS).flat();
    expect(checked.filter((key, i) => checked.indexOf(key) !== i)).toEqual([]);
    const withResult = [...operations()].filter(([, op]) => op.result).map(([key]) => key);
    expect([...checked].sort()).toEqual(withResult.sort());
  });
});
