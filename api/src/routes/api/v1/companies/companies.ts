import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/companies/api';
import { listVisibleCompanies } from '../../../../db/companies';
import { moduleAccessIn } from '../../../../db/module-access';
import { toCompanyDto } from '../../../../modules/companies/company-dto';
import { pageWindow } from '../../../../lib/paging';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { permissionsIn, policyCompany } from '../../../../plugins/app/policies';

export default async function companiesRoutes(app: FastifyInstance) {
  const { db } = app;

  route(app, api.listCompanies, async (request) => {
    const { user } = await requireAuth(request);
    const { page, pageSize, ignorePagination, search, sort } = request.query;
    const window = pageWindow({ page, pageSize, ignorePagination });
    const { results, total } = await listVisibleCompanies(db, user, {
      search: search || undefined,
      descending: sort === '-name',
      limit: window.limit,
      offset: window.offset,
    });
    return window.reply(results.map(toCompanyDto), total);
  });

  route(app, api.getCompany, async (request) => toCompanyDto(policyCompany(request)));

  route(app, api.getAccessPermissions, async (request) => {
    const { user } = await requireAuth(request);
    const company = policyCompany(request);
    const [modulesAccess, settingsPermissions] = await Promise.all([
      moduleAccessIn(db, user, company),
      permissionsIn(db, user, company.id),
    ]);
    return { modulesAccess, settingsPermissions };
  });
}
