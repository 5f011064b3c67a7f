import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  identityProviderInputSchema,
  type IdentityProvider,
  type IdentityProviderSettings,
} from '@portal/shared/core/schemas';
import { deleteIdentityProvider, findIdentityProvider, saveIdentityProvider, type IdentityProviderRecord } from '../../db/identity-providers';
import { HttpError, validationError } from '../../lib/http-error';
import { parseCertificate, requestOrigin, serviceProviderFor } from '../../lib/saml';
import { policyCompany, type Policy } from '../../plugins/policies';

const PATH = '/api/v1/companies/:id/identity-provider';
const policy: Policy = { company: 'settings', permission: 'company.editInformation' };

function toIdentityProviderDto(record: IdentityProviderRecord): IdentityProvider {
  const certificate = parseCertificate(record.certificate);
  return {
    entityId: record.entityId,
    ssoUrl: record.ssoUrl,
    certificate: record.certificate,
    sloUrl: record.sloUrl,
    certificateFingerprint: certificate?.fingerprint256 ?? '',
    certificateExpiresAt: certificate ? new Date(certificate.validTo).toISOString() : '',
    updatedAt: record.updatedAt,
  };
}

/** The company's identity provider settings (the SAML service provider's values with them, for the IdP's admin). */
export default async function identityProviderRoutes(app: FastifyInstance) {
  const { db, config } = app;

  const settings = (request: FastifyRequest, record: IdentityProviderRecord | null): IdentityProviderSettings => ({
    identityProvider: record ? toIdentityProviderDto(record) : null,
    serviceProvider: serviceProviderFor(config, requestOrigin(request)),
  });

  app.get(PATH, { config: { policy } }, async (request) => settings(request, await findIdentityProvider(db, policyCompany(request).id)));

  app.put(PATH, { config: { policy } }, async (request) => {
    const parsed = identityProviderInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'field');
    const { entityId, ssoUrl, certificate, sloUrl } = parsed.data;
    const x509 = parseCertificate(certificate);
    if (!x509) {
      throw new HttpError(400, 'validation_failed', 'Invalid field: certificate', [
        { field: 'certificate', message: 'certificate is not a readable X.509 certificate (PEM or base64 DER)' },
      ]);
    }
    const record = await saveIdentityProvider(db, {
      companyId: policyCompany(request).id,
      entityId,
      ssoUrl,
      // Stored as PEM whatever the form it came in.
      certificate: x509.toString(),
      sloUrl: sloUrl ?? null,
    });
    request.log.info({ companyId: record.companyId, fingerprint: x509.fingerprint256 }, 'identity provider saved');
    return settings(request, record);
  });

  app.delete(PATH, { config: { policy } }, async (request, reply) => {
    const companyId = policyCompany(request).id;
    await deleteIdentityProvider(db, companyId);
    request.log.info({ companyId }, 'identity provider removed');
    return reply.code(204).send();
  });
}
