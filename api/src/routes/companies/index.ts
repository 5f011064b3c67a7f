import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AccessPermissions, Company } from '@portal/shared/core/schemas';
import { listVisibleCompanies, type CompanyRecord } from '../../db/companies';
import { moduleAccessIn } from '../../db/module-access';
import { validationError } from '../../lib/http-error';
import { imageUrl } from '../../lib/images';
import { pageWindow } from '../../lib/paging';
import { requireAuth } from '../../plugins/auth';
import { permissionsIn, policyCompany } from '../../plugins/policies';

export const MAX_PAGE_SIZE = 200;

export const companiesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  ignorePagination: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  search: z.string().trim().max(200).optional(),
  sort: z.enum(['name', '-name'], { error: 'sort must be name or -name' }).default('name'),
});

export function toCompanyDto(company: CompanyRecord): Company {
  return {
    id: company.id,
    name: company.name,
    logo: imageUrl('companies', company.id, company.logo),
    modulesAccess: company.modulesAccess,
  };
}

export default async function companiesRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/api/v1/companies', { config: { policy: 'signedIn' } }, async (request) => {
    const { user } = await requireAuth(request);
    const parsed = companiesQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw validationError(parsed.error, 'query parameter');
    const { page, pageSize, ignorePagination, search, sort } = parsed.data;
    const window = pageWindow({ page, pageSize, ignorePagination });
    const { results, total } = await listVisibleCompanies(db, user, {
      search: search || undefined,
      descending: sort === '-name',
      limit: window.limit,
      offset: window.offset,
    });
    return window.reply(results.map(toCompanyDto), total);
  });

  app.get('/api/v1/companies/:id', { config: { policy: { company: 'member' } } }, async (request) =>
    toCompanyDto(policyCompany(request)),
  );

  app.get(
    '/api/v1/companies/:id/access-permissions',
    { config: { policy: { company: 'member' } } },
    async (request) => {
      const { user } = await requireAuth(request);
      const company = policyCompany(request);
      const [modulesAccess, settingsPermissions] = await Promise.all([
        moduleAccessIn(db, user, company),
        permissionsIn(db, user, company.id),
      ]);
      const body: AccessPermissions = { modulesAccess, settingsPermissions };
      return body;
    },
  );
}
