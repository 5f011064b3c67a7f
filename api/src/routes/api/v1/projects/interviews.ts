/**
 * Interviews of a project (issue 7; the contract is shared/src/core/interviews): schedule, list,
 * reschedule, cancel, and the invitation as an .ics file. The logic is in modules/interviews (service.ts
 * the changes and their Graph meetings, notices.ts the invitations and notifications).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/interviews/api';
import { interviewPeople, listInterviews } from '../../../../db/interviews';
import type { UserRecord } from '../../../../db/users';
import { audit } from '../../../../lib/audit';
import { route } from '../../../../lib/contract';
import { createGraphClient } from '../../../../lib/graph';
import { HttpError } from '../../../../lib/http-error';
import { pageWindow } from '../../../../lib/paging';
import { calendarSettings, interviewCalendar } from '../../../../modules/interviews/notices';
import {
  cancelScheduledInterview,
  changeInterview,
  getInterview,
  scheduleInterview,
  type InterviewCaller,
  type InterviewServices,
} from '../../../../modules/interviews/service';
import { requireAuth } from '../../../../plugins/app/auth';
import { policyProject } from '../../../../plugins/app/policies';
import { sendAttachment } from '../../../../modules/files/attachments';

/** "staff writer": project:write (the policy) and staff. */
async function staffWriter(request: FastifyRequest): Promise<UserRecord> {
  const { user } = await requireAuth(request);
  if (!user.isTevora) throw new HttpError(403, 'user_can_not_update_project');
  return user;
}

/** The staff writer check of the changes, before their body is read: a client learns nothing of its rules. */
const staffOnly = { preValidation: async (request: FastifyRequest) => void (await staffWriter(request)) };

/** The caller of a change as the service takes them: the staff writer, the request's log and audit. */
async function callerOf(request: FastifyRequest): Promise<InterviewCaller> {
  const user = await staffWriter(request);
  return { user, log: request.log, audit: (change, trx) => audit(request, change, trx) };
}

/** Interviews of a project (docs/projects.md, "Interviews"). */
export default async function projectInterviewsRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const services: InterviewServices = {
    db,
    graph: config.graph ? createGraphClient(config.graph) : null,
    mailer: app.mailer,
    liveEvents: app.liveEvents,
    calendar: calendarSettings(config),
  };

  // ---- reads

  route(app, api.listInterviews, async (request) => {
    const { project } = policyProject(request);
    const { query } = request;
    const window = pageWindow({ ...query, ignorePagination: false });
    const { results, total } = await listInterviews(db, project.id, {
      when: query.when,
      limit: query.pageSize,
      offset: window.offset,
      now: Date.now(),
    });
    return window.reply(results, total);
  });

  route(app, api.listInterviewPeople, async (request) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    return interviewPeople(db, project, { staffDirectory: user.isTevora });
  });

  route(app, api.getInterview, async (request) => {
    const { project } = policyProject(request);
    return getInterview(db, project.id, request.params.interviewId);
  });

  route(app, api.downloadInterviewCalendar, async (request, reply) => {
    const { project } = policyProject(request);
    const { text, filename } = await interviewCalendar(db, services.calendar, project.id, request.params.interviewId);
    return sendAttachment(reply, text, 'text/calendar; charset=utf-8', filename);
  });

  // ---- schedule, reschedule or change, cancel

  route(
    app,
    api.createInterview,
    async (request, reply) => {
      const { project } = policyProject(request);
      const caller = await callerOf(request);
      return reply.code(201).send(await scheduleInterview(services, project, caller, request.body));
    },
    staffOnly,
  );

  route(
    app,
    api.updateInterview,
    async (request) => {
      const { project } = policyProject(request);
      const caller = await callerOf(request);
      return changeInterview(services, project, caller, request.params.interviewId, request.body);
    },
    staffOnly,
  );

  route(
    app,
    api.cancelInterview,
    async (request) => {
      const { project } = policyProject(request);
      const caller = await callerOf(request);
      return cancelScheduledInterview(services, project, caller, request.params.interviewId, request.body);
    },
    staffOnly,
  );
}
