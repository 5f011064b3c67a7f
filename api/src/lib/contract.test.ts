/**
 * `route()`: an operation's result is the answer's schema on every success status it answers with a
 * body, so each is serialized from the schema (no undocumented field leaves) and, in the tests,
 * checked against it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineOperation, type Operation } from '@portal/shared/core/contract';
import { inject } from '../test/app';
import { resultStatuses, route, serializerCompiler, validatorCompiler } from './contract';

const saveThing = defineOperation({
  method: 'PUT',
  url: '/things/:id',
  summary: 'Create or replace a thing',
  tag: 'Test',
  policy: 'public',
  responses: { 200: 'the replaced thing', 201: 'the created thing' },
  result: z.strictObject({ id: z.string() }),
});

/** A bare app with the api's compilers and the one route, answering 201 for `new`, else 200, with an extra field. */
async function appWith(check: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(check));
  route(app, saveThing, async (request, reply) =>
    reply.code(request.params.id === 'new' ? 201 : 200).send({ id: request.params.id, secret: 'x' }),
  );
  await app.ready();
  return app;
}

describe('route()', () => {
  it('lists the success statuses that carry the result (not 204)', () => {
    expect(resultStatuses(saveThing)).toEqual([200, 201]);
    expect(resultStatuses({ ...saveThing, responses: { 201: 'created', 204: 'nothing' } })).toEqual([201]);
    expect(resultStatuses({ ...saveThing, responses: { 204: 'nothing' } })).toEqual([]);
  });

  it('serializes every success status of the operation with its result schema', async () => {
    const app = await appWith(false);
    try {
      const replaced = await inject(app, { method: 'PUT', url: '/things/old' });
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json()).toEqual({ id: 'old' });
      const created = await inject(app, { method: 'PUT', url: '/things/new' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ id: 'new' });
    } finally {
      await app.close();
    }
  });

  it('refuses, in the tests, an answer outside the contract on every success status', async () => {
    const app = await appWith(true);
    try {
      for (const id of ['old', 'new']) {
        const res = await inject(app, { method: 'PUT', url: `/things/${id}` });
        expect(res.statusCode).toBe(500);
      }
    } finally {
      await app.close();
    }
  });
});

describe('route() under a prefix (the folder of the route file, routes/)', () => {
  const op = (method: 'GET' | 'POST', url: string) =>
    defineOperation({
      method,
      url,
      summary: 'A test operation',
      tag: 'Test',
      policy: 'public',
      responses: { 204: 'done' },
    });

  /** The routes (method and path) an app registers from `ops` in a plugin registered with `prefix`. */
  async function routesUnder(prefix: string, ops: Operation[]): Promise<string[]> {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    const seen: string[] = [];
    app.addHook('onRoute', (r) => void seen.push(`${r.method} ${r.url}`));
    app.register(
      async (scope) => {
        for (const operation of ops) route(scope, operation, async (_request, reply) => reply.code(204).send());
      },
      { prefix },
    );
    await app.ready();
    await app.close();
    return seen.sort();
  }

  it("registers each operation at its own path, the prefix's own path and its slash form each alone", async () => {
    expect(
      await routesUnder('/api/v1/things', [
        op('GET', '/api/v1/things'),
        op('POST', '/api/v1/things/'),
        op('GET', '/api/v1/things/:id/parts'),
      ]),
    ).toEqual([
      'GET /api/v1/things',
      'GET /api/v1/things/:id/parts',
      'HEAD /api/v1/things',
      'HEAD /api/v1/things/:id/parts',
      'POST /api/v1/things/',
    ]);
  });

  it('refuses at start an operation outside the folder, naming it', async () => {
    await expect(routesUnder('/api/v1/things', [op('GET', '/api/v1/thingsandmore')])).rejects.toThrow(
      'GET /api/v1/thingsandmore is registered from a route file whose folder gives the prefix /api/v1/things',
    );
    await expect(routesUnder('/auth', [op('GET', '/api/v1/things')])).rejects.toThrow(/move the file/);
  });
});
