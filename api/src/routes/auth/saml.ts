import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import * as api from '@portal/shared/core/portal/api';
import { findFederationByEmail, markUserFederated } from '../../db/identity-providers';
import { escapeHtml } from '../../lib/html';
import {
  SAML_BINDING_COOKIE,
  SamlRejection,
  serviceProviderFor,
  serviceProviderMetadata,
  verifySamlResponse,
} from '../../lib/saml';
import { startSession } from '../../plugins/app/auth';
import { route } from '../../lib/contract';
import { LOGIN_PATH } from '../../modules/auth/login-page';
import { FORM_PAGE, TO_URL_COOKIE, formFields, safeReturnPath } from '../../modules/auth/sign-in-forms';
import { renderAuthPage } from '../../modules/auth/login-page';

/** A failed single sign-on: the /auth page frame with the reason, a way back and the request reference. */
export function renderSamlErrorPage({
  brandName,
  message,
  requestId,
}: {
  brandName: string;
  message: string;
  requestId: string;
}): string {
  return renderAuthPage({
    brandName,
    title: 'Sign-in failed',
    heading: 'Sign-in failed',
    error: message,
    body: `  <p class="aside"><a href="${LOGIN_PATH}">Back to sign-in</a></p>
  <p class="hint">Reference: ${escapeHtml(requestId)}</p>`,
  });
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

  route(app, api.getSamlMetadata, async (_request, reply) =>
    reply.type('application/samlmetadata+xml; charset=utf-8').send(serviceProviderMetadata(serviceProviderFor(config))),
  );

  // The identity provider's form post (cross-site: no session or toUrl cookie arrives with it, only
  // the SameSite=None binding cookie of the browser that started the sign-in). A response missing or
  // not text is refused on the error page (verifySamlResponse), not as JSON: the form is read as posted.
  route(
    app,
    api.signInWithSaml,
    async (request, reply) => {
      const fields = formFields(request);
      try {
        const { companyId, email } = await verifySamlResponse(
          db,
          serviceProviderFor(config),
          fields.SAMLResponse,
          request.cookies[SAML_BINDING_COOKIE],
        );

        const federation = email ? await findFederationByEmail(db, email) : null;
        if (!federation || federation.companyId !== companyId) {
          const reason = !email
            ? 'assertion names no email'
            : federation
              ? 'user signs in through another company'
              : 'no client user of a company with this identity provider';
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
        return reply.header('cache-control', 'no-store').redirect(safeReturnPath(fields.RelayState), 303);
      } catch (error) {
        if (!(error instanceof SamlRejection)) throw error;
        // The reason only: never the response, the assertion or a token.
        request.log.info({ code: error.code, reason: error.reason }, 'SAML sign-in refused');
        return errorPage(reply, error.statusCode, error.message);
      }
    },
    FORM_PAGE,
  );
}
