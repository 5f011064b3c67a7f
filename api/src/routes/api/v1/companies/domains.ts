import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import { DOMAIN_VERIFICATION_PREFIX, type CompanyDomain } from '@portal/shared/core/schemas';
import {
  DomainConflict,
  addCompanyDomain,
  deleteCompanyDomain,
  findCompanyDomain,
  markCompanyDomainVerified,
  verifiedDomainOwner,
  type CompanyDomainRecord,
} from '../../../../db/identity-providers';
import { audit } from '../../../../lib/audit';
import { route } from '../../../../lib/contract';
import { HttpError } from '../../../../lib/http-error';
import { domainConflict, toCompanyDomainDto } from '../../../../modules/companies/domains';
import { requireAuth } from '../../../../plugins/app/auth';
import { policyCompany } from '../../../../plugins/app/policies';

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
export default async function companyDomainRoutes(app: FastifyInstance) {
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
