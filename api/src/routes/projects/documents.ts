import type { FastifyInstance } from 'fastify';
import { documentsQuerySchema, type DocumentList } from '@portal/shared/core/files';
import { listCompanyFiles } from '../../db/files';
import { requireAuth } from '../../plugins/auth';
import { policyCompany, type Policy } from '../../plugins/policies';
import { parseListQuery } from './query';

const memberWithProjects: Policy = { company: 'member', module: 'projects' };

/** Documents (issue 6): every file of the company's projects the caller sees (auditors: only their projects'). */
export default async function documentsRoutes(app: FastifyInstance) {
  app.get(
    '/api/v1/companies/:id/files',
    { config: { policy: memberWithProjects } },
    async (request): Promise<DocumentList> => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      const query = parseListQuery(documentsQuerySchema, request.query);
      const { results, total } = await listCompanyFiles(app.db, company.id, user, {
        search: query.search || undefined,
        projectId: query.projectId,
        sort: query.sort,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { results, total, page: query.page, pageSize: query.pageSize };
    },
  );
}
