import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { findFederationByEmail, markUserFederated } from '../../db/identity-providers';
import { escapeHtml } from '../../lib/html';
import {
  SAML_ACS_PATH,
  SAML_METADATA_PATH,
  SamlRejection,
  requestOrigin,
  serviceProviderFor,
  serviceProviderMetadata,
  verifySamlResponse,
} from '../../lib/saml';
import { startSession } from '../../plugins/auth';
import { LOGIN_PATH, TO_URL_COOKIE, safeReturnPath } from './index';

/** A failed single sign-on: self-contained like the sign-in page, every value escaped. */
export function renderSamlErrorPage({ brandName, message, requestId }: { brandName: string; message: string; requestId: string }): string {
  const brand = escapeHtml(brandName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign-in failed · ${brand} Portal</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f3f5f8; color: #1b1f24; }
  main { width: 100%; max-width: 28rem; background: #fff; border-radius: 12px; padding: 2rem;
    box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 8px 24px rgba(0,0,0,.06); }
  h1 { margin: 0 0 1rem; font-size: 1.5rem; }
  .error { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: 8px; color: #b3261e; background: #fdecea; border: 1px solid #f5c2c0; }
  .reference { color: #57606a; font-size: .875rem; }
  a { color: #1f5fbf; font-weight: 600; }
  @media (prefers-color-scheme: dark) {
    body { background: #0d1117; color: #e6edf3; }
    main { background: #161b22; box-shadow: none; border: 1px solid #30363d; }
    .error { background: #3b1614; border-color: #6e2a26; color: #ffb4ab; }
    .reference { color: #9da7b3; }
    a { color: #79b8ff; }
  }
</style>
</head>
<body>
<main>
  <h1>${brand} Portal</h1>
  <p class="error" role="alert">${escapeHtml(message)}</p>
  <p><a href="${LOGIN_PATH}">Back to sign-in</a></p>
  <p class="reference">Reference: ${escapeHtml(requestId)}</p>
</main>
</body>
</html>
`;
}

export default async function samlRoutes(app: FastifyInstance) {
  const { config, db } = app;

  function errorPage(reply: FastifyReply, status: number, message: string) {
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderSamlErrorPage({ brandName: config.brandName, message, requestId: reply.request.id }));
  }

  app.get(SAML_METADATA_PATH, { config: { policy: 'public' } }, async (request, reply) =>
    reply.type('application/samlmetadata+xml; charset=utf-8').send(serviceProviderMetadata(serviceProviderFor(config, requestOrigin(request)))),
  );

  // The identity provider's form post (cross-site: no session or toUrl cookie arrives with it).
  app.post(SAML_ACS_PATH, { config: { policy: 'public' } }, async (request, reply) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    try {
      const sp = serviceProviderFor(config, requestOrigin(request));
      const { companyId, email } = await verifySamlResponse(db, sp, body.SAMLResponse);

      const federation = email ? await findFederationByEmail(db, email) : null;
      if (!federation || federation.companyId !== companyId) {
        const reason = !email ? 'assertion names no email' : federation ? 'user signs in through another company' : 'no client user of a company with this identity provider';
        throw new SamlRejection(403, 'invalid_user', ERROR_MESSAGES.invalid_user, reason);
      }
      const { user } = federation;
      if (user.status !== 'active') {
        throw new SamlRejection(
          403,
          'user_is_inactive',
          `${ERROR_MESSAGES.user_is_inactive} Please contact your ${config.brandName} Portal admin.`,
          `user ${user.id} is suspended`,
        );
      }

      await markUserFederated(db, user.id);
      await startSession(request, reply, user.id);
      reply.clearCookie(TO_URL_COOKIE, { path: '/' });
      request.log.info({ userId: user.id, companyId }, 'signed in through SAML');
      const relayState = typeof body.RelayState === 'string' ? body.RelayState : undefined;
      return reply.header('cache-control', 'no-store').redirect(safeReturnPath(relayState), 303);
    } catch (error) {
      if (!(error instanceof SamlRejection)) throw error;
      // The reason only: never the response, the assertion or a token.
      request.log.info({ code: error.code, reason: error.reason }, 'SAML sign-in refused');
      return errorPage(reply, error.statusCode, error.message);
    }
  });
}
