/**
 * Evidence requests (issue 8): list, create, assignees, bulk, detail, edit, transitions, history (helper A).
 * The rules are modules/requests/ (service.ts, bulk.ts). Contract: shared/src/core/requests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/requests/api';
import { listRequestEvents, requestAssigneeOptions } from '../../../db/requests';
import { route } from '../../../lib/contract';
import { requireAuth } from '../../../plugins/app/auth';
import { policyCompany, policyRequest } from '../../../plugins/app/policies';
import { bulkUpdateRequests } from '../../../modules/requests/bulk';
import {
  createRequest,
  editRequest,
  listCompanyRequests,
  requestDetailOf,
  transitionRequest,
} from '../../../modules/requests/service';
import { assertManage } from '../../../modules/requests/shared';

/** Who may manage comes before what was sent: a caller who may not learns nothing of the body's rules. */
async function mayManage(request: FastifyRequest): Promise<void> {
  assertManage((await requireAuth(request)).user);
}

export default async function requestsRoutes(app: FastifyInstance) {
  const { db } = app;

  // ---------------------------------------------------------------------------------------------
  // A company's requests

  route(app, api.listRequests, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const page = await listCompanyRequests(db, user, company.id, request.query);
    reply.header('cache-control', 'no-store');
    return page;
  });

  route(
    app,
    api.createRequest,
    async (request, reply) => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      const detail = await createRequest({ app, request, user }, company.id, request.body);
      return reply.code(201).send(detail);
    },
    { preValidation: mayManage },
  );

  route(app, api.listRequestAssigneeOptions, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    reply.header('cache-control', 'no-store');
    return requestAssigneeOptions(db, company.id, user);
  });

  route(
    app,
    api.bulkUpdateRequests,
    async (request) => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      return bulkUpdateRequests({ app, request, user }, company.id, request.body);
    },
    { preValidation: mayManage },
  );

  // ---------------------------------------------------------------------------------------------
  // One request

  route(app, api.getRequest, async (request, reply) => {
    const { user } = await requireAuth(request);
    const detail = await requestDetailOf(db, policyRequest(request), user);
    reply.header('cache-control', 'no-store');
    return detail;
  });

  route(app, api.updateRequest, async (request) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    return editRequest({ app, request, user }, access, request.body);
  });

  route(app, api.transitionRequest, async (request) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    return transitionRequest({ app, request, user }, access, request.body);
  });

  route(app, api.listRequestHistory, async (request, reply) => {
    const access = policyRequest(request);
    const results = await listRequestEvents(db, access.request.id, { staff: access.staff });
    reply.header('cache-control', 'no-store');
    return { results };
  });
}
