import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../lib/http-error';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CLIENT_HEADER = 'x-portal-client';

/** Whether `value` (an Origin or a Referer) is the origin this request was sent to. */
export function isSameOrigin(request: FastifyRequest, value: string): boolean {
  let given: URL;
  let expected: URL;
  try {
    given = new URL(value);
    expected = new URL(`${request.protocol}://${request.host}`);
  } catch {
    return false;
  }
  return given.origin === expected.origin;
}

/**
 * Why a request is refused as a possible cross-site forgery; undefined when it is not.
 * The api's state-changing calls must carry `X-Portal-Client: web` (a header a cross-site form cannot
 * send) and an Origin (or, without one, a Referer) of this origin. The sign-in form cannot add a
 * header: it must come from this origin by Origin or Referer.
 */
function forgery(request: FastifyRequest): HttpError | undefined {
  if (!STATE_CHANGING.has(request.method)) return undefined;
  const path = request.url;
  const origin = request.headers.origin;
  if (path.startsWith('/api/v1/') || path === '/api/v1' || path.startsWith('/api/v1?')) {
    if (request.headers[CLIENT_HEADER] !== 'web') {
      return new HttpError(403, 'csrf_rejected', 'The request was rejected: the X-Portal-Client header is missing.');
    }
    // Browsers send Origin on every non-GET fetch; Referer stands in where a privacy setting drops it.
    const source = origin ?? request.headers.referer;
    if (source === undefined) {
      return new HttpError(403, 'csrf_rejected', 'The request was rejected: the Origin header is missing.');
    }
    if (!isSameOrigin(request, source)) {
      return new HttpError(403, 'csrf_rejected', 'The request was rejected: it came from another origin.');
    }
    return undefined;
  }
  // The identity provider posts the SAML response from its own origin: the response's signature
  // and its InResponseTo (a request this portal sent) are what protect that route.
  if (request.method === 'POST' && path.split('?')[0] === '/auth/saml/acs') return undefined;
  if (path.startsWith('/auth/')) {
    const referer = request.headers.referer;
    const source = origin ?? referer;
    if (source !== undefined && !isSameOrigin(request, source)) {
      return new HttpError(403, 'csrf_rejected', 'The request was rejected: it came from another origin.');
    }
  }
  return undefined;
}

/**
 * CSRF defence (forgery above), before anything else reads the request. A hook with a callback: it
 * runs on every request, and an async one costs a promise and a turn of the microtask queue each time.
 */
export default fp(
  async function csrf(app: FastifyInstance) {
    app.addHook('onRequest', (request, _reply, done) => done(forgery(request)));
  },
  // a request for a host the portal does not serve is refused (421) before the CSRF check
  { name: 'csrf', dependencies: ['canonical-host', 'error-handler'] },
);
