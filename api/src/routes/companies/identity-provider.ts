import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  identityProviderInputSchema,
  type IdentityProvider,
  type IdentityProviderSettings,
} from '@portal/shared/core/schemas';
import { deleteIdentityProvider, findIdentityProvider, saveIdentityProvider, type IdentityProviderRecord } from '../../db/identity-providers';
import { audit } from '../../lib/audit';
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

/** What the audit log keeps of an identity provider: the certificate by its fingerprint only. */
function auditedSettings(record: IdentityProviderRecord | null) {
  if (!record) return null;
  return {
    entityId: record.entityId,
    ssoUrl: record.ssoUrl,
    sloUrl: record.sloUrl,
    certificateFingerprint: parseCertificate(record.certificate)?.fingerprint256 ?? null,
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
    const company = policyCompany(request);
    const record = await db.transaction().execute(async (trx) => {
      const before = await findIdentityProvider(trx, company.id);
      const saved = await saveIdentityProvider(trx, {
        companyId: company.id,
        entityId,
        ssoUrl,
        // Stored as PEM whatever the form it came in.
        certificate: x509.toString(),
        sloUrl: sloUrl ?? null,
      });
      await audit(
        request,
        {
          action: 'company.identityProvider.update',
          targetType: 'company',
          targetId: company.id,
          targetLabel: company.name,
          companyId: company.id,
          before: auditedSettings(before),
          after: auditedSettings(saved),
        },
        trx,
      );
      return saved;
    });
    request.log.info({ companyId: record.companyId, fingerprint: x509.fingerprint256 }, 'identity provider saved');
    return settings(request, record);
  });

  app.delete(PATH, { config: { policy } }, async (request, reply) => {
    const company = policyCompany(request);
    const companyId = company.id;
    await db.transaction().execute(async (trx) => {
      const before = await findIdentityProvider(trx, companyId);
      await deleteIdentityProvider(trx, companyId);
      if (before) {
        await audit(
          request,
          { action: 'company.identityProvider.delete', targetType: 'company', targetId: companyId, targetLabel: company.name, companyId, before: auditedSettings(before) },
          trx,
        );
      }
    });
    request.log.info({ companyId }, 'identity provider removed');
    return reply.code(204).send();
  });
}
