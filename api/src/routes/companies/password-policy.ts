import type { FastifyInstance } from 'fastify';
import { passwordPolicySchema, type PasswordPolicy } from '@portal/shared/core/schemas';
import { findPasswordPolicy, savePasswordPolicy } from '../../db/password-policies';
import { audit } from '../../lib/audit';
import { validationError } from '../../lib/http-error';
import { policyCompany } from '../../plugins/policies';

/** A company's password policy: the default (12 characters, no rotation) until it sets one. */
export default async function passwordPolicyRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/v1/companies/:id/password-policy',
    { config: { policy: { company: 'member' } } },
    async (request): Promise<PasswordPolicy> => findPasswordPolicy(db, policyCompany(request).id),
  );

  app.post(
    '/api/v1/companies/:id/password-policy',
    { config: { policy: { company: 'settings', permission: 'company.editInformation' } } },
    async (request): Promise<PasswordPolicy> => {
      const parsed = passwordPolicySchema.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(parsed.error, 'field');
      const company = policyCompany(request);
      const saved = await db.transaction().execute(async (trx) => {
        const before = await findPasswordPolicy(trx, company.id);
        const after = await savePasswordPolicy(trx, company.id, parsed.data);
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
    },
  );
}
