import type { FastifyInstance } from 'fastify';
import { deleteExpiredSamlRecords, findFederationByEmail, findIdentityProvider } from '../db/identity-providers';
import { authorizeUrl, serviceProviderFor } from './saml';

/**
 * Identifier-first sign-in: where the email's company signs in. Returns the identity provider's URL
 * (an AuthnRequest recorded for InResponseTo and bound to the browser's `binding` cookie value,
 * `returnPath` carried as RelayState) when a company that verified the email's domain has one
 * configured and the user belongs to it, else null (local password sign-in). Unknown emails get null
 * too, so the answer does not tell who has an account.
 */
export async function samlRedirectForEmail(
  app: FastifyInstance,
  email: string,
  returnPath: string,
  binding: string,
): Promise<string | null> {
  const { db, config } = app;
  const federation = await findFederationByEmail(db, email);
  if (!federation) return null;
  const provider = await findIdentityProvider(db, federation.companyId);
  if (!provider) return null;
  await deleteExpiredSamlRecords(db);
  return authorizeUrl(db, serviceProviderFor(config), provider, returnPath, binding);
}
