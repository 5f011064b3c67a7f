import type { FastifyInstance } from 'fastify';

/**
 * Identifier-first sign-in: where the email's company signs in. Returns the identity provider's URL
 * (an AuthnRequest recorded for InResponseTo, `returnPath` carried as RelayState) when the user's
 * company has one configured, else null (local password sign-in).
 * Placeholder until the SAML service provider lands: no company has an identity provider yet.
 */
export async function samlRedirectForEmail(_app: FastifyInstance, _email: string, _returnPath: string): Promise<string | null> {
  return null;
}
