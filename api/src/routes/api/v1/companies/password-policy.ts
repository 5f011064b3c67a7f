import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import { findPasswordPolicy, savePasswordPolicy } from '../../../../db/password-policies';
import { audit } from '../../../../lib/audit';
import { route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';

/** A company's password policy: the default (12 characters, no rotation) until it sets one. */
export default async function passwordPolicyRoutes(app: FastifyInstance) {
  const { db } = app;

  route(app, api.getPasswordPolicy, async (request) => findPasswordPolicy(db, policyCompany(request).id));

  route(app, api.setPasswordPolicy, async (request) => {
    const company = policyCompany(request);
    const saved = await db.transaction().execute(async (trx) => {
      const before = await findPasswordPolicy(trx, company.id);
      const after = await savePasswordPolicy(trx, company.id, request.body);
      await audit(
        request,
        {
          action: 'company.passwordPolicy.update',
          targetType: 'company',
          targetId: company.id,
          targetLabel: company.name,
          companyId: company.id,
          before,
          after,
        },
        trx,
      );
      return after;
    });
    request.log.info({ companyId: company.id, ...saved }, 'password policy saved');
    return saved;
  });
}
