import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/projects/api';
import { listCompanyFiles } from '../../../../db/files';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';

/** Documents (issue 6): every file of the company's projects the caller sees (auditors: only their projects'). */
export default async function documentsRoutes(app: FastifyInstance) {
  route(app, api.listDocuments, async (request) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { query } = request;
    const { results, total } = await listCompanyFiles(app.db, company.id, user, {
      search: query.search || undefined,
      projectId: query.projectId,
      sort: query.sort,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { results, total, page: query.page, pageSize: query.pageSize };
  });
}
