import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import type { ApiErrorBody } from '@portal/shared/core/errors';
import { HttpError, defaultMessage, zodDetails } from '../../lib/http-error';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'bad_request',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

/** Fastify's own client errors, with messages a user can act on. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'bad_request', message: 'The JSON body is malformed.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad_request', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'This content type is not supported: send application/json.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
};

/**
 * PostgreSQL's refusals of a value the request carried (a NUL character in text, text that is not a
 * valid number or uuid...): the request is at fault, not the server. The routes validate first; this
 * is the last line of defence.
 */
const POSTGRES_INVALID_INPUT = new Set(['22021', '22P02']);

function isPostgresInvalidInput(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && POSTGRES_INVALID_INPUT.has(code) && typeof severity === 'string';
}

/**
 * The database cannot be reached for a moment (PostgreSQL restarting or refusing connections, a cut
 * connection, the pool's connect timeout; SQLite locked past its busy timeout): the request may be
 * tried again, so 503 with Retry-After, not 500.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_TIMEOUT',
]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, severity, message } = (error ?? {}) as { code?: unknown; severity?: unknown; message?: unknown };
  // PostgreSQL's own: operator intervention (57P01 shutting down, 57P03 starting up) and connection exceptions (08...)
  if (typeof code === 'string' && typeof severity === 'string' && (code.startsWith('57P') || code.startsWith('08')))
    return true;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return error instanceof Error && typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

const hasNul = (value: unknown): boolean => {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value))
      if (hasNul(key) || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
};

/** The first path or query parameter holding a NUL character (in its name or value), or null. */
export function parameterWithNul(
  params: unknown,
  query: unknown,
): { field: string; where: 'path parameter' | 'query parameter' } | null {
  const sources = [
    [params, 'path parameter'],
    [query, 'query parameter'],
  ] as const;
  for (const [source, where] of sources) {
    if (source === null || typeof source !== 'object') continue;
    for (const key of Object.keys(source)) {
      // Named as the routes name it: `status[]` is the list `status`.
      if (hasNul(key) || hasNul((source as Record<string, unknown>)[key]))
        return { field: key.split('\u0000').join('\\0').replace(/\[\]$/, ''), where };
    }
  }
  return null;
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: Omit<ApiErrorBody, 'requestId'>,
) {
  const payload: ApiErrorBody = { code: body.code, message: body.message, requestId: request.id };
  if (body.details) payload.details = body.details;
  return reply.code(status).type('application/json; charset=utf-8').send(payload);
}

function toReply(error: unknown): {
  status: number;
  body: Omit<ApiErrorBody, 'requestId'>;
  retryAfterSeconds?: number;
} {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, details: error.details },
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (error instanceof ZodError) {
    return {
      status: 400,
      body: { code: 'validation_failed', message: defaultMessage('validation_failed'), details: zodDetails(error) },
    };
  }
  if (isPostgresInvalidInput(error)) {
    return { status: 400, body: { code: 'validation_failed', message: defaultMessage('validation_failed') } };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: {
        code: 'service_unavailable',
        message: `The portal cannot reach its database for a moment. Try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
      },
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return { status: known.status, body: { code: known.code, message: known.message } };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, body: { code: 'bad_request', message: 'The JSON body is malformed.' } };
  }
  const status =
    typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 ? fastifyError.statusCode : 500;
  if (status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'bad_request';
    return { status, body: { code, message: fastifyError.message || defaultMessage(code) } };
  }
  return {
    status,
    body: { code: status === 503 ? 'service_unavailable' : 'internal_error', message: 'Internal server error' },
  };
}

/** The one error path: every failure becomes `{ code, message, requestId }`; 5xx details stay in the log. */
export default fp(
  async function errorHandler(app: FastifyInstance) {
    // No NUL character reaches a query (PostgreSQL cannot hold one in text): refused before any hook that reads the database.
    // (a hook with a callback: it runs on every request, and an async one costs a promise each time)
    app.addHook('preValidation', (request, _reply, done) => {
      const found = parameterWithNul(request.params, request.query);
      if (!found) return done();
      done(
        new HttpError(400, 'validation_failed', `Invalid ${found.where}: ${found.field}`, [
          { field: found.field, message: `${found.field} must not contain a NUL character` },
        ]),
      );
    });

    app.setErrorHandler((error, request, reply) => {
      const { status, body, retryAfterSeconds } = toReply(error);
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: body.code, status }, 'request rejected');
      if (retryAfterSeconds !== undefined) reply.header('retry-after', retryAfterSeconds);
      return sendError(request, reply, status, body);
    });

    app.setNotFoundHandler((request, reply) =>
      sendError(request, reply, 404, {
        code: 'not_found',
        message: `No route for ${request.method} ${request.url.split('?')[0]}`,
      }),
    );
  },
  { name: 'error-handler' },
);
