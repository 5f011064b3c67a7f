import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import type { IdentityProvider, IdentityProviderSettings } from '@portal/shared/core/schemas';
import {
  deleteIdentityProvider,
  findIdentityProvider,
  listCompanyDomains,
  saveIdentityProvider,
  type IdentityProviderRecord,
} from '../../../../db/identity-providers';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { parseCertificate, serviceProviderFor } from '../../../../lib/saml';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { toCompanyDomainDto } from '../../../../modules/companies/domains';
import { policyCompany } from '../../../../plugins/app/policies';

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

  const settings = async (
    request: FastifyRequest,
    record: IdentityProviderRecord | null,
  ): Promise<IdentityProviderSettings> => {
    const { user } = await requireAuth(request);
    return {
      identityProvider: record ? toIdentityProviderDto(record) : null,
      serviceProvider: serviceProviderFor(config),
      domains: (await listCompanyDomains(db, policyCompany(request).id)).map(toCompanyDomainDto),
      canConfirmDomains: user.isTevora && user.isAdmin,
    };
  };

  route(app, api.getIdentityProvider, async (request) =>
    settings(request, await findIdentityProvider(db, policyCompany(request).id)),
  );

  route(app, api.setIdentityProvider, async (request) => {
    const { entityId, ssoUrl, certificate, sloUrl } = request.body;
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

  route(app, api.deleteIdentityProvider, async (request, reply) => {
    const company = policyCompany(request);
    const companyId = company.id;
    await db.transaction().execute(async (trx) => {
      const before = await findIdentityProvider(trx, companyId);
      await deleteIdentityProvider(trx, companyId);
      if (before) {
        await audit(
          request,
          {
            action: 'company.identityProvider.delete',
            targetType: 'company',
            targetId: companyId,
            targetLabel: company.name,
            companyId,
            before: auditedSettings(before),
          },
          trx,
        );
      }
    });
    request.log.info({ companyId }, 'identity provider removed');
    return reply.code(204).send();
  });
}
