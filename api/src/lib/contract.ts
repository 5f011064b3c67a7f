/**
 * The api's routes, registered from their operations (`@portal/shared/core/<area>/api`): each
 * operation's policy, path parameters, query, body and answer become the fastify route's config and
 * schema, through fastify-type-provider-zod's types. Fastify then validates the input before the
 * handler runs (after the policy: a caller without the right learns nothing of the input rules) and
 * serializes the answer with a serializer compiled from the answer's schema (fast-json-stringify,
 * fastify's own). The OpenAPI document is generated from the same registered routes (lib/openapi.ts,
 * plugins/external/swagger.ts).
 *
 * Where a route is registered: @fastify/autoload gives each route file the prefix of its folder under
 * routes/ (routes/api/v1/companies/teams.ts: `/api/v1/companies`), and the operation (shared) gives
 * the whole path. `route()` registers the path relative to the plugin's prefix, and refuses at start
 * an operation whose path does not start with it: a route file in the wrong folder fails loudly
 * (docs/adr/0011-api-tree-and-autoload.md).
 *
 * Input errors keep the api's one error path: 400 `validation_failed` naming each field or
 * parameter that failed, with the rule in `details`.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RouteOptions,
} from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZodError, z } from 'zod';
import type { BodyOf, Operation, ParamsOf, QueryOf, ResultOf } from '@portal/shared/core/contract';
import { hasNoNul, nulMessage } from '@portal/shared/core/settings';
import { HttpError, nameUnknownFields, validationError } from './http-error';
import { collapseNullable } from './collapse-nullable';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation the route was registered from (`route()`). */
    operation?: Operation;
  }
}

/** An id in the path: present, bounded, without NUL characters (PostgreSQL refuses them in text). */
export const idParam = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`)
    .refine(hasNoNul, nulMessage(field));

/** 400 validation_failed for a field the schema let through but a rule of the call refuses. */
export const invalidField = (field: string, message: string) =>
  new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message }]);

/** The path parameters' schema: an `idParam` for each `:name`, unless the operation says more. */
export function paramsSchema(operation: Operation): z.ZodObject {
  const names = [...operation.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const base = z.object(Object.fromEntries(names.map((name) => [name, idParam(name)])));
  return operation.params ? base.extend(operation.params.shape) : base;
}

/**
 * The query as fastify hands it to the schemas: `key[]=a&key[]=b` (how the web encodes arrays),
 * `key=a&key=b` and any mix of the two become one list under `key`. No prototype: a parameter named
 * `__proto__` stays a parameter.
 */
export function querystringParser(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw)) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    out[name] = name in out || key !== name ? [out[name] ?? [], value].flat() : value;
  }
  return out;
}

const PLACES = { body: 'field', querystring: 'query parameter', params: 'path parameter' } as const;

/** Validation of a route's input with its zod schemas; a failure names the field or parameter. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const parsed = schema.safeParse(data ?? {});
    if (parsed.success) return { value: parsed.data };
    const where = PLACES[httpPart as keyof typeof PLACES] ?? 'field';
    // A query list is one parameter to the caller: `status`, not `status.1`.
    const error =
      where === 'query parameter'
        ? new ZodError(
            parsed.error.issues.map((issue) => ({
              ...issue,
              path: issue.path.filter((key) => typeof key !== 'number'),
            })),
          )
        : where === 'field'
          ? nameUnknownFields(parsed.error)
          : parsed.error;
    return { error: validationError(error, where) };
  };

/** A zod schema as the JSON Schema fast-json-stringify compiles (what the api answers). */
export function answerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-7' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/**
 * Serializers compiled from the answers' zod schemas by fastify's own compiler. With `check` (the
 * tests), an answer is first parsed with its schema, so a handler answering outside its contract
 * fails loudly instead of losing a field.
 */
export function serializerCompiler(check: boolean): FastifySerializerCompiler<unknown> {
  const compile = SerializerSelector()({}, {});
  return ({ schema, method, url, httpStatus }) => {
    if (!(schema instanceof z.ZodType)) return compile({ schema, method, url, httpStatus: httpStatus ?? '200' });
    // nullable plain types as lists of types: the same JSON, written without ajv (lib/collapse-nullable.ts)
    const json = collapseNullable(answerJsonSchema(schema)) as Record<string, unknown>;
    const stringify = compile({ schema: json, method, url, httpStatus: httpStatus ?? '200' });
    if (!check) return stringify;
    return (data: unknown) => {
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        const [issue] = parsed.error.issues;
        throw new Error(
          `${method} ${url} answered ${httpStatus} outside its contract: ${issue.path.join('.') || '(the body)'}: ${issue.message}`,
        );
      }
      return stringify(data);
    };
  };
}

/** The success statuses an operation answers with a body (2xx but 204): each carries its result. */
export function resultStatuses(operation: Operation): number[] {
  return Object.keys(operation.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300 && status !== 204);
}

/** What a handler of an operation receives. */
export type OperationRequest<O extends Operation> = FastifyRequest<{
  Params: ParamsOf<O>;
  Querystring: QueryOf<O>;
  Body: BodyOf<O>;
}>;

/** A handler: the answer's body (checked against the operation's result), or the reply it sent. */
export type OperationHandler<O extends Operation> = (
  request: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<ResultOf<O> | FastifyReply | void>;

/** Route options an operation does not describe (body limits, hooks of one route, websocket...). */
export type RouteExtras = Omit<Partial<RouteOptions>, 'method' | 'url' | 'schema' | 'handler'>;

/**
 * `url` relative to the prefix `app` was registered with (its folder under routes/), for
 * `app.route()`: '' when `url` is the prefix itself. Throws when `url` does not start with the prefix:
 * the route file is in the wrong folder.
 */
export function urlUnderPrefix(app: FastifyInstance, url: string, what = url): string {
  const prefix = app.prefix;
  if (url === prefix) return '';
  if (prefix === '' || url.startsWith(`${prefix}/`)) return url.slice(prefix.length);
  throw new Error(
    `${what} is registered from a route file whose folder gives the prefix ${prefix}, which its path ${url} ` +
      `does not start with: move the file to the folder under routes/ that its paths share (routes/api/v1/<resource>)`,
  );
}

/** Registers `operation` on `app` with its handler: config (policy), schemas, then fastify does the rest. */
export function route<const O extends Operation>(
  app: FastifyInstance,
  operation: O,
  handler: OperationHandler<O>,
  extras: RouteExtras = {},
): void {
  const schema: Record<string, unknown> = { params: paramsSchema(operation) };
  if (operation.query) schema.querystring = operation.query;
  if (operation.body) schema.body = operation.body;
  if (operation.result) {
    const result = operation.result;
    const statuses = resultStatuses(operation);
    schema.response = Object.fromEntries((statuses.length ? statuses : [200]).map((status) => [status, result]));
  }
  // The path below the route file's prefix ('' for the prefix itself). `prefixTrailingSlash: 'slash'`:
  // an operation whose path is the prefix and a slash (`/api/v1/system-settings/`) is that path only,
  // not also the prefix (fastify's default registers both).
  const url = urlUnderPrefix(app, operation.url, `${operation.method} ${operation.url}`);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...extras,
    method: operation.method,
    url,
    ...(url === '/' ? { prefixTrailingSlash: 'slash' as const } : {}),
    schema,
    config: { ...extras.config, policy: operation.policy, operation },
    handler: handler as unknown as RouteOptions['handler'],
  });
}
