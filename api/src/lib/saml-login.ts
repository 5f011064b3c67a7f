import type { FastifyInstance } from 'fastify';
import { deleteExpiredSamlRecords, findFederationByEmail, findIdentityProvider } from '../db/identity-providers';
import { authorizeUrl, serviceProviderFor } from './saml';

/**
 * Identifier-first sign-in: where the email's company signs in. Returns the identity provider's URL
 * (an AuthnRequest recorded for InResponseTo, `returnPath` carried as RelayState) when the user's
 * company has one configured, else null (local password sign-in). Unknown emails get null too, so
 * the answer does not tell who has an account.
 *
 * `origin` is the origin the browser used (`requestOrigin(request)` from ./saml): the service
 * provider's entity id and ACS URL derive from it unless PUBLIC_URL is set.
 */
export async function samlRedirectForEmail(
  app: FastifyInstance,
  email: string,
  returnPath: string,
  origin?: string,
): Promise<string | null> {
  const { db, config } = app;
  const federation = await findFederationByEmail(db, email);
  if (!federation) return null;
  const provider = await findIdentityProvider(db, federation.companyId);
  if (!provider) return null;
  if (!origin && !config.publicUrl) {
    app.log.warn('SAML sign-in without PUBLIC_URL or the request origin: the identity provider is told http://localhost');
  }
  await deleteExpiredSamlRecords(db);
  const sp = serviceProviderFor(config, origin ?? `http://localhost:${config.port}`);
  return authorizeUrl(db, sp, provider, returnPath);
}
