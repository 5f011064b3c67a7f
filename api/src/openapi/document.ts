/**
 * The OpenAPI 3.1 document of the api, built from the routes the app registered (method, url,
 * policy: the same table the authorization test walks) and OPERATIONS (what each one reads and
 * answers, with the shared zod schemas turned into JSON Schema). The error answers come from the
 * policy: who may call, and what a caller without the right gets.
 */
import { z } from 'zod';
import type { Policy, RoutePolicy } from '../plugins/policies';
import type { Operation as ContractOperation } from '@portal/shared/core/contract';
import type { Operation } from './operation';
import { RESULTS } from './results';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  description: string;
  'x-policy': Policy;
  security?: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/**
 * A zod schema as JSON Schema: for what a caller sends (`input`: defaults and coercions on the input
 * side), or for what the api answers (`output`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** What the policy lets through, in words, for the docs. */
export function describePolicy(policy: Policy): string {
  if (policy === 'public') return 'Anyone, signed in or not.';
  if (policy === 'signedIn') return 'Any signed-in user.';
  if (policy === 'staff') return 'Staff users.';
  if (policy === 'staffAdmin') return 'Staff admins.';
  if ('staff' in policy) return `Staff users holding the ${policy.staff} permission (not auditors).`;
  if ('targetUser' in policy)
    return `Users who may manage the user of the path (${policy.targetUser}); another company's user is not found (404).`;
  if ('project' in policy) {
    const level = {
      read: 'who see the project',
      write: 'who may work on the project (staff, or a role on it)',
      manage: 'staff who manage projects (not auditors)',
    }[policy.project];
    return `Users ${level}; another company's project is not found (404); needs the projects module.`;
  }
  if ('request' in policy) {
    return `${policy.request === 'manage' ? 'Staff who manage requests (not auditors)' : 'Users who see the request'}; another company's request is not found (404); needs the requests module.`;
  }
  if (policy.company === 'settings')
    return `Members of the company holding ${policy.permission}, and staff; another company is not found (404).`;
  return `Members of the company and staff${policy.module ? `, with the ${policy.module} module on` : ''}; another company is not found (404).`;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

function errorAnswers(route: RoutePolicy, op: Operation | ContractOperation): OpenApiOperation['responses'] {
  const out: OpenApiOperation['responses'] = {};
  const { policy } = route;
  const api = route.url.startsWith('/api/');
  const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
  // Every route refuses a NUL character in its path or query; the sign-in pages show their own
  // problems on the page again (HTML), the rest answer the Error schema.
  const invalid = 'validation_failed (or bad_request): the field or rule that failed is named in `details`';
  out['400'] = api
    ? errorAnswer(invalid)
    : {
        description: `${invalid}; a form page shows the problem on the page again`,
        content: { 'application/json': { schema: ERROR_REF }, 'text/html': { schema: {} } },
      };
  if (policy !== 'public') out['401'] = errorAnswer('unauthorized: no valid session');
  if (policy !== 'public' && policy !== 'signedIn')
    out['403'] = errorAnswer('forbidden / module_access_denied / csrf_rejected: the caller lacks the right');
  else if (api && writes)
    out['403'] = errorAnswer(
      'csrf_rejected: the X-Portal-Client header or a same-origin Origin is missing (or the code names the rule)',
    );
  if (typeof policy === 'object' || /:/.test(route.url))
    out['404'] = errorAnswer('not found, or not visible to the caller (existence is not revealed)');
  if (api && writes)
    out['409'] = errorAnswer(
      "conflict: the resource's state or a name already taken forbids the change (the code says which)",
    );
  if (op.form || (api && writes)) out['413'] = errorAnswer('payload_too_large: the body is over the limit');
  if (writes)
    out['415'] = errorAnswer(
      op.form
        ? 'unsupported_media_type: send multipart/form-data'
        : api
          ? 'unsupported_media_type: send application/json'
          : 'unsupported_media_type: send the form (application/x-www-form-urlencoded)',
    );
  if (api) out['429'] = errorAnswer('too_many_requests: rate limit reached; retry after the Retry-After seconds');
  if (api)
    out['503'] = errorAnswer(
      'service_unavailable: the database cannot be reached for a moment; retry after the Retry-After seconds',
    );
  // A form post from another origin is refused (the identity provider's SAML response excepted).
  if (!api && writes && route.url !== '/auth/saml/acs')
    out['403'] = errorAnswer('csrf_rejected: the form was posted from another origin');
  for (const [status, description] of Object.entries(op.errors ?? {})) out[status] = errorAnswer(description);
  for (const [status, description] of Object.entries(op.pageErrors ?? {})) {
    const json = out[status]?.content ?? {};
    out[status] = {
      description: out[status] ? `${out[status].description}; ${description}` : description,
      content: { ...json, 'text/html': { schema: {} } },
    };
  }
  return out;
}

/** `/api/v1/projects/:id/tasks/:taskId` as OpenAPI writes it: `/api/v1/projects/{id}/tasks/{taskId}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function queryParameters(schema: z.ZodType): OpenApiParameter[] {
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: s,
  }));
}

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/(api\/v1|api)\//, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by ${part.slice(1)}` : part))
    .join(' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  // `/api/v1/system-settings/` is registered beside `/api/v1/system-settings` (some clients send the slash)
  const slash = url.length > 1 && url.endsWith('/') ? ['TrailingSlash'] : [];
  return [method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1)), ...slash].join('');
}

export function openApiDocument(
  routes: readonly RoutePolicy[],
  operations: Record<string, Operation>,
  version: string,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    if (route.method === 'HEAD') continue;
    const key = `${route.method} ${route.url}`;
    const op = route.operation ?? operations[key];
    if (!op) throw new Error(`${key} has no OpenAPI description: add it to api/src/openapi/operations.ts`);
    const parameters: OpenApiParameter[] = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 100 },
    }));
    if (op.query) parameters.push(...queryParameters(op.query));
    const content: Record<string, { schema: JsonSchema }> = {};
    if (op.body) {
      const schema = jsonSchemaOf(op.body);
      content[route.url.startsWith('/auth/') ? 'application/x-www-form-urlencoded' : 'application/json'] = { schema };
    }
    if (op.form) {
      const fields = op.form.fields ? jsonSchemaOf(op.form.fields) : { type: 'object', properties: {} };
      const properties = { ...((fields.properties ?? {}) as Record<string, JsonSchema>) };
      for (const [name, description] of Object.entries(op.form.files))
        properties[name] = { type: 'string', format: 'binary', description };
      content['multipart/form-data'] = { schema: { ...fields, type: 'object', properties } };
    }
    const responses: OpenApiOperation['responses'] = {};
    for (const [status, description] of Object.entries(op.responses)) {
      const types = Number(status) === 204 || Number(status) >= 300 ? [] : (op.produces ?? ['application/json']);
      const result = route.operation ? route.operation.result : RESULTS[key];
      const schemaOf = (type: string) =>
        type === 'application/json' && result && Number(status) < 300 ? jsonSchemaOf(result, 'output') : {};
      responses[status] = types.length
        ? { description, content: Object.fromEntries(types.map((t) => [t, { schema: schemaOf(t) }])) }
        : { description };
    }
    Object.assign(responses, errorAnswers(route, op));
    const entry: OpenApiOperation = {
      operationId: operationId(route.method, route.url),
      summary: op.summary,
      tags: [op.tag],
      description: `Who may call: ${describePolicy(route.policy)}`,
      'x-policy': route.policy,
      ...(route.policy === 'public' ? { security: [] } : {}),
      parameters,
      ...(Object.keys(content).length ? { requestBody: { required: !op.form || !op.body, content } } : {}),
      responses,
    };
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = entry;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance portal api',
      version,
      description:
        'Signed-in calls carry the session cookie. State-changing calls under /api/v1 also need the header `X-Portal-Client: web` and a same-origin Origin (CSRF).',
    },
    security: [{ session: [] }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', description: 'a code of the error catalogue (shared/src/core/errors.ts)' },
            message: { type: 'string' },
            details: {
              type: 'array',
              items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
            },
            requestId: { type: 'string' },
          },
        },
      },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pe_session_token' } },
    },
  };
}
