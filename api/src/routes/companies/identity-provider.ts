import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import {
  DOMAIN_VERIFICATION_PREFIX,
  type CompanyDomain,
  type IdentityProvider,
  type IdentityProviderSettings,
} from '@portal/shared/core/schemas';
import {
  DomainConflict,
  addCompanyDomain,
  deleteCompanyDomain,
  deleteIdentityProvider,
  findCompanyDomain,
  findIdentityProvider,
  listCompanyDomains,
  markCompanyDomainVerified,
  saveIdentityProvider,
  verifiedDomainOwner,
  type CompanyDomainRecord,
  type IdentityProviderRecord,
} from '../../db/identity-providers';
import { audit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { parseCertificate, serviceProviderFor } from '../../lib/saml';
import { requireAuth } from '../../plugins/auth';
import { route } from '../../plugins/contract';
import { policyCompany } from '../../plugins/policies';

export function toCompanyDomainDto(record: CompanyDomainRecord): CompanyDomain {
  return {
    id: record.id,
    domain: record.domain,
    status: record.verifiedAt ? 'verified' : 'pending',
    verification: {
      name: record.domain,
      type: 'TXT',
      value: `${DOMAIN_VERIFICATION_PREFIX}${record.verificationToken}`,
    },
    verifiedAt: record.verifiedAt,
    verifiedBy: record.verifiedBy,
    createdAt: record.createdAt,
  };
}

const DOMAIN_TAKEN =
  'Another company has verified this domain: its users sign in through that company. Ask a staff admin if this is wrong.';

function domainConflict(error: unknown): never {
  if (error instanceof DomainConflict) {
    throw new HttpError(
      409,
      'domain_taken',
      error.reason === 'listed' ? 'This domain is already listed for the company.' : DOMAIN_TAKEN,
      [
        {
          field: 'domain',
          message:
            error.reason === 'listed'
              ? 'This domain is already listed for the company'
              : 'Another company has verified this domain',
        },
      ],
    );
  }
  throw error;
}

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

/** The company's domain `domainId`, or 404. */
async function domainOf(request: FastifyRequest, domainId: string): Promise<CompanyDomainRecord> {
  const domain = await findCompanyDomain(request.server.db, policyCompany(request).id, domainId);
  if (!domain) throw new HttpError(404, 'domain_not_found', 'Domain not found.');
  return domain;
}

/**
 * The email domains a company's identity provider may sign in. A company's admins claim a domain and
 * prove it with a DNS TXT record; only a staff admin may confirm one without DNS. A domain is verified
 * by one company at most, and its users then sign in through that company whatever other companies
 * they belong to.
 */
export async function companyDomainRoutes(app: FastifyInstance) {
  const { db } = app;

  route(app, api.addCompanyDomain, async (request, reply) => {
    const company = policyCompany(request);
    const { domain } = request.body;
    const owner = await verifiedDomainOwner(db, domain);
    if (owner !== null && owner !== company.id) domainConflict(new DomainConflict('verified_elsewhere'));
    const record = await db
      .transaction()
      .execute(async (trx) => {
        const added = await addCompanyDomain(trx, company.id, domain);
        await audit(
          request,
          {
            action: 'company.domain.add',
            targetType: 'company',
            targetId: company.id,
            targetLabel: company.name,
            companyId: company.id,
            after: { domain },
          },
          trx,
        );
        return added;
      })
      .catch(domainConflict);
    return reply.code(201).send(toCompanyDomainDto(record));
  });

  async function verify(
    request: FastifyRequest,
    domain: CompanyDomainRecord,
    by: 'dns' | 'staff',
  ): Promise<CompanyDomain> {
    if (domain.verifiedAt) return toCompanyDomainDto(domain);
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const record = await db
      .transaction()
      .execute(async (trx) => {
        const verified = await markCompanyDomainVerified(trx, domain, by, user.id);
        await audit(
          request,
          {
            action: 'company.domain.verify',
            targetType: 'company',
            targetId: company.id,
            targetLabel: company.name,
            companyId: company.id,
            after: { domain: domain.domain, verifiedBy: by },
          },
          trx,
        );
        return verified;
      })
      .catch(domainConflict);
    request.log.info({ companyId: company.id, domain: domain.domain, by }, 'company domain verified');
    return toCompanyDomainDto(record);
  }

  route(app, api.verifyCompanyDomain, async (request) => {
    const domain = await domainOf(request, request.params.domainId);
    if (domain.verifiedAt) return toCompanyDomainDto(domain);
    const expected = `${DOMAIN_VERIFICATION_PREFIX}${domain.verificationToken}`;
    const records = await app.resolveTxt(domain.domain);
    if (!records.includes(expected)) {
      throw new HttpError(
        400,
        'domain_not_verified',
        `No TXT record "${expected}" was found on ${domain.domain}. Add it at your DNS provider; changes can take a while to appear, so try again later.`,
      );
    }
    return verify(request, domain, 'dns');
  });

  route(app, api.confirmCompanyDomain, async (request) => {
    const { user } = await requireAuth(request);
    if (!(user.isTevora && user.isAdmin)) {
      throw new HttpError(
        403,
        'forbidden',
        'Only a staff admin can confirm a domain without its DNS record. Verify it with the TXT record instead.',
      );
    }
    return verify(request, await domainOf(request, request.params.domainId), 'staff');
  });

  route(app, api.deleteCompanyDomain, async (request, reply) => {
    const domain = await domainOf(request, request.params.domainId);
    const company = policyCompany(request);
    await db.transaction().execute(async (trx) => {
      await deleteCompanyDomain(trx, company.id, domain.id);
      await audit(
        request,
        {
          action: 'company.domain.delete',
          targetType: 'company',
          targetId: company.id,
          targetLabel: company.name,
          companyId: company.id,
          before: { domain: domain.domain, verifiedBy: domain.verifiedBy },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });
}
