import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  PROJECT_STATUS_LABELS,
  PROJECT_TRANSITIONS,
  TYPE_SWITCHABLE_TASK_STATUSES,
  canMoveProject,
  type Project,
} from '@portal/shared/core/projects';
import * as api from '@portal/shared/core/projects/api';
import {
  activePracticeExists,
  createProject,
  findProjectFields,
  hasActiveRoleHolder,
  listProjects,
  lockProjectStatus,
  projectHasFiles,
  projectHasTasks,
  projectsByIds,
  projectsSummary,
  projectTitleTaken,
  setProjectStatus,
  updateProjectFields,
  type ProjectFields,
  type ProjectRecord,
} from '../../../db/projects';
import type { Database } from '../../../db/schema';
import { findUserById, type UserRecord } from '../../../db/users';
import { audit } from '../../../lib/audit';
import { HttpError } from '../../../lib/http-error';
import { requireAuth } from '../../../plugins/app/auth';
import { invalidField, route } from '../../../lib/contract';
import { policyCompany, policyProject } from '../../../plugins/app/policies';
import { changedFields, settleDuplicate } from '../../../modules/projects/writes';
import { managesProjects } from '../../../modules/projects/permissions';

const projectNotFound = () => new HttpError(404, 'project_not_found');
const titleTaken = () =>
  new HttpError(409, 'project_already_exist', undefined, [
    { field: 'title', message: 'title is already used by another project' },
  ]);

/**
 * What the caller may do on a project: the same rules the policies and the roster call enforce. A
 * canceled project's work is frozen (409 project_is_canceled), so nobody may write to it.
 */
export function withPermissions(record: ProjectRecord, caller: Pick<UserRecord, 'isTevora' | 'isAuditor'>): Project {
  const manage = managesProjects(caller);
  return {
    ...record,
    permissions: {
      manage,
      write: (manage || record.myRole !== null) && record.status !== 'canceled',
      manageRoster: manage || record.myRole === 'Client Lead',
    },
  };
}

async function checkPractice(db: Kysely<Database>, practiceId: string | null | undefined): Promise<void> {
  if (practiceId && !(await activePracticeExists(db, practiceId))) {
    throw invalidField('practiceId', 'practiceId must name an active practice');
  }
}

/** Projects of a company, the dashboard's charts, and a project's own fields and lifecycle. */
export default async function projectsRoutes(app: FastifyInstance) {
  const { db } = app;

  async function projectFor(caller: UserRecord, projectId: string): Promise<Project> {
    const [record] = await projectsByIds(db, [projectId], caller.id);
    if (!record) throw projectNotFound();
    return withPermissions(record, caller);
  }

  route(app, api.listProjects, async (request) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { page, pageSize, status, practiceId, search, sort } = request.query;
    const { results, total } = await listProjects(db, company.id, user, {
      status,
      practiceId,
      search: search || undefined,
      sort,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { results: results.map((r) => withPermissions(r, user)), total, page, pageSize };
  });

  route(app, api.getProjectsSummary, async (request) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    return { ...(await projectsSummary(db, company.id, user)), canCreate: managesProjects(user) };
  });

  // Who may create comes before what was sent: a caller who may not create learns nothing of the body's rules.
  const mayCreate = async (request: FastifyRequest) => {
    const { user } = await requireAuth(request);
    if (!managesProjects(user)) throw new HttpError(403, 'user_can_not_update_project');
  };

  route(
    app,
    api.createProject,
    async (request, reply) => {
      const company = policyCompany(request);
      const { user } = await requireAuth(request);
      const input = request.body;
      const projectId = await settleDuplicate(titleTaken, () =>
        db.transaction().execute(async (trx) => {
          await checkPractice(trx, input.practiceId);
          const leadId = input.leadConsultantId ?? user.id;
          if (input.leadConsultantId !== undefined) {
            const lead = await findUserById(trx, leadId);
            // Auditors review the work: they never lead it.
            if (!lead || !lead.isTevora || lead.isAuditor || lead.status !== 'active') {
              throw invalidField(
                'leadConsultantId',
                'leadConsultantId must name an active staff user who is not an auditor',
              );
            }
          }
          if (await projectTitleTaken(trx, input.title)) throw titleTaken();
          const fields: ProjectFields = {
            title: input.title,
            description: input.description ?? null,
            type: input.type,
            practiceId: input.practiceId ?? null,
            startDate: input.startDate ?? null,
            dueDate: input.dueDate ?? null,
          };
          const id = await createProject(trx, {
            ...fields,
            companyId: company.id,
            createdBy: user.id,
            leadConsultantId: leadId,
          });
          await audit(
            request,
            {
              action: 'project.create',
              targetType: 'project',
              targetId: id,
              targetLabel: fields.title,
              companyId: company.id,
              after: { ...fields, status: 'pending', leadConsultantId: leadId },
            },
            trx,
          );
          return id;
        }),
      );
      return reply.code(201).send(await projectFor(user, projectId));
    },
    { preValidation: mayCreate },
  );

  route(app, api.getProject, async (request) => {
    const { user } = await requireAuth(request);
    return projectFor(user, policyProject(request).project.id);
  });

  route(app, api.updateProject, async (request) => {
    const { user } = await requireAuth(request);
    const { project } = policyProject(request);
    const input = request.body;
    await settleDuplicate(titleTaken, () =>
      db.transaction().execute(async (trx) => {
        const current = await findProjectFields(trx, project.id);
        if (!current) throw projectNotFound();
        const { before, after: changes } = changedFields(current, input, [
          'title',
          'description',
          'type',
          'practiceId',
          'startDate',
          'dueDate',
        ]);
        if ('practiceId' in changes) await checkPractice(trx, changes.practiceId);
        // The schema compares the two dates when both are sent; one sent alone is compared with the other's stored value.
        const startDate = changes.startDate !== undefined ? changes.startDate : current.startDate;
        const dueDate = changes.dueDate !== undefined ? changes.dueDate : current.dueDate;
        if (startDate && dueDate && startDate > dueDate)
          throw invalidField('dueDate', 'dueDate must not be before startDate');
        if (changes.title !== undefined && (await projectTitleTaken(trx, changes.title, project.id)))
          throw titleTaken();
        if (changes.type !== undefined && (await projectHasTasks(trx, project.id, TYPE_SWITCHABLE_TASK_STATUSES))) {
          throw new HttpError(409, 'project_type_cannot_be_switched');
        }
        if ('practiceId' in changes && (await projectHasTasks(trx, project.id))) {
          throw new HttpError(409, 'practices_can_not_be_changed_when_project_has_tasks');
        }
        if (Object.keys(changes).length === 0) return;
        await updateProjectFields(trx, project.id, changes);
        await audit(
          request,
          {
            action: 'project.update',
            targetType: 'project',
            targetId: project.id,
            targetLabel: changes.title ?? current.title,
            companyId: project.companyId,
            before,
            after: changes,
          },
          trx,
        );
      }),
    );
    return projectFor(user, project.id);
  });

  route(app, api.changeProjectStatus, async (request) => {
    const { user } = await requireAuth(request);
    const { project } = policyProject(request);
    const { status: to } = request.body;
    await db.transaction().execute(async (trx) => {
      // Locked first: a task created meanwhile waits for this move, or this move sees it.
      const from = await lockProjectStatus(trx, project.id, 'update');
      const current = from === null ? null : await findProjectFields(trx, project.id);
      if (from === null || !current) throw projectNotFound();
      if (from === to) return;
      // A status outside the machine (older data) moves nowhere.
      if (!(from in PROJECT_TRANSITIONS) || !canMoveProject(from, to)) {
        throw new HttpError(
          409,
          'invalid_status_transition',
          `A project cannot move from ${PROJECT_STATUS_LABELS[from] ?? from} to ${PROJECT_STATUS_LABELS[to]}.`,
        );
      }
      if (to === 'active') {
        // A suspended holder counts as missing: someone active must lead the work.
        if (!(await hasActiveRoleHolder(trx, project.id, 'Client Lead')))
          throw new HttpError(409, 'client_lead_missing_in_project');
        if (!(await hasActiveRoleHolder(trx, project.id, 'Lead Consultant')))
          throw new HttpError(409, 'lead_consultant_missing_in_project');
      }
      if (to === 'canceled') {
        if (await projectHasTasks(trx, project.id)) throw new HttpError(409, 'project_with_tasks_cannot_be_canceled');
        if (await projectHasFiles(trx, project.id)) throw new HttpError(409, 'project_with_files_cannot_be_canceled');
      }
      await setProjectStatus(trx, project.id, to);
      await audit(
        request,
        {
          action: 'project.status',
          targetType: 'project',
          targetId: project.id,
          targetLabel: current.title,
          companyId: project.companyId,
          before: { status: from },
          after: { status: to },
        },
        trx,
      );
    });
    return projectFor(user, project.id);
  });
}
