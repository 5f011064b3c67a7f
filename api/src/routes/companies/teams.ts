import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { MODULES } from '@portal/shared/core/modules';
import { moduleAccessPutSchema, teamNameSchema, type AssignedObject, type Team } from '@portal/shared/core/settings';
import { isUniqueViolation } from '../../db/values';
import type { Database } from '../../db/schema';
import {
  activeCompanyMemberIds,
  addTeamMembers,
  deleteTeam,
  findTeam,
  insertTeam,
  listTeams,
  removeTeamMember,
  renameTeam,
  setTeamModulesAccess,
  teamAssignedObjects,
  teamNameTaken,
} from '../../db/teams';
import { audit } from '../../lib/audit';
import { HttpError, nameUnknownFields, validationError } from '../../lib/http-error';
import { policyCompany, type Policy } from '../../plugins/policies';

const member: Policy = { company: 'member' };
const editUsersAndTeams: Policy = { company: 'settings', permission: 'company.editUsersAndTeams' };
const editModulesAccess: Policy = { company: 'settings', permission: 'company.editModulesAccess' };

const TEAM = '/api/v1/companies/:id/teams/:teamId';

const idText = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`);
const teamParamsSchema = z.object({ teamId: idText('teamId') });
const memberParamsSchema = z.object({ teamId: idText('teamId'), userId: idText('userId') });
export const userIdsSchema = z.object({
  userIds: z
    .array(idText('userIds'), { error: 'userIds must be a list of user ids' })
    .min(1, 'userIds must name at least one user')
    .max(200, 'userIds may name at most 200 users'),
});

const teamNotFound = () => new HttpError(404, 'team_not_found');
const userNotFound = () => new HttpError(404, 'user_not_found');
const teamNameTakenError = () =>
  new HttpError(409, 'team_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another team of this company' },
  ]);

function params<T extends z.ZodType>(schema: T, request: FastifyRequest): z.infer<T> {
  const parsed = schema.safeParse(request.params);
  if (!parsed.success) throw validationError(parsed.error, 'path parameter');
  return parsed.data;
}

function teamName(request: FastifyRequest): string {
  const parsed = teamNameSchema.safeParse(request.body ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'field');
  return parsed.data.name;
}

/** `userIds[]=a&userIds[]=b` (as the web encodes arrays) or `userIds=a&userIds=b`; one value or several. */
function userIdsOf(query: unknown): unknown {
  const q = (query ?? {}) as Record<string, unknown>;
  const raw = q['userIds[]'] ?? q.userIds;
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

async function guardTeamName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw teamNameTakenError();
    throw error;
  }
}

async function teamOrThrow(db: Kysely<Database>, companyId: string, teamId: string): Promise<Team> {
  const team = await findTeam(db, companyId, teamId);
  if (!team) throw teamNotFound();
  return team;
}

/** Teams of a company: members, module values and the objects given to them. */
export default async function companiesTeamsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/v1/companies/:id/teams',
    { config: { policy: member } },
    async (request): Promise<{ results: Team[] }> => ({
      results: await listTeams(db, policyCompany(request).id),
    }),
  );

  app.post('/api/v1/companies/:id/teams', { config: { policy: editUsersAndTeams } }, async (request, reply) => {
    const company = policyCompany(request);
    const name = teamName(request);
    const teamId = await guardTeamName(() =>
      db.transaction().execute(async (trx) => {
        if (await teamNameTaken(trx, company.id, name)) throw teamNameTakenError();
        const id = await insertTeam(trx, company.id, name);
        await audit(
          request,
          {
            action: 'team.create',
            targetType: 'team',
            targetId: id,
            targetLabel: name,
            companyId: company.id,
            after: { name },
          },
          trx,
        );
        return id;
      }),
    );
    return reply.code(201).send(await teamOrThrow(db, company.id, teamId));
  });

  app.patch(TEAM, { config: { policy: editUsersAndTeams } }, async (request): Promise<Team> => {
    const company = policyCompany(request);
    const { teamId } = params(teamParamsSchema, request);
    const name = teamName(request);
    await guardTeamName(() =>
      db.transaction().execute(async (trx) => {
        const team = await teamOrThrow(trx, company.id, teamId);
        if (await teamNameTaken(trx, company.id, name, teamId)) throw teamNameTakenError();
        if (team.name === name) return;
        await renameTeam(trx, teamId, name);
        await audit(
          request,
          {
            action: 'team.update',
            targetType: 'team',
            targetId: teamId,
            targetLabel: name,
            companyId: company.id,
            before: { name: team.name },
            after: { name },
          },
          trx,
        );
      }),
    );
    return teamOrThrow(db, company.id, teamId);
  });

  app.delete(TEAM, { config: { policy: editUsersAndTeams } }, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId } = params(teamParamsSchema, request);
    await db.transaction().execute(async (trx) => {
      const team = await teamOrThrow(trx, company.id, teamId);
      await deleteTeam(trx, teamId);
      await audit(
        request,
        {
          action: 'team.delete',
          targetType: 'team',
          targetId: teamId,
          targetLabel: team.name,
          companyId: company.id,
          before: { name: team.name, userIds: team.users.map((u) => u.id), modulesAccess: team.modulesAccess },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  /** Adds users to the team: all must be members of the company, else nothing is added. */
  async function addMembers(
    request: FastifyRequest,
    companyId: string,
    teamId: string,
    userIds: string[],
    one: boolean,
  ): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const team = await teamOrThrow(trx, companyId, teamId);
      const members = await activeCompanyMemberIds(trx, companyId, userIds);
      const outsiders = [...new Set(userIds)].filter((id) => !members.has(id));
      if (outsiders.length) {
        if (one) throw userNotFound();
        throw new HttpError(400, 'validation_failed', 'Invalid query parameter: userIds', [
          {
            field: 'userIds',
            message: `userIds holds users who are not members of this company: ${outsiders.join(', ')}`,
          },
        ]);
      }
      for (const user of await addTeamMembers(trx, teamId, userIds)) {
        await audit(
          request,
          {
            action: 'team.member.add',
            targetType: 'team',
            targetId: teamId,
            targetLabel: team.name,
            companyId,
            after: { userId: user.id, email: user.email },
          },
          trx,
        );
      }
    });
  }

  app.put(`${TEAM}/users/:userId`, { config: { policy: editUsersAndTeams } }, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId, userId } = params(memberParamsSchema, request);
    await addMembers(request, company.id, teamId, [userId], true);
    return reply.code(204).send();
  });

  app.put(`${TEAM}/users`, { config: { policy: editUsersAndTeams } }, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId } = params(teamParamsSchema, request);
    const parsed = userIdsSchema.safeParse({ userIds: userIdsOf(request.query) });
    if (!parsed.success) throw validationError(parsed.error, 'query parameter');
    await addMembers(request, company.id, teamId, parsed.data.userIds, false);
    return reply.code(204).send();
  });

  app.delete(`${TEAM}/users/:userId`, { config: { policy: editUsersAndTeams } }, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId, userId } = params(memberParamsSchema, request);
    await db.transaction().execute(async (trx) => {
      const team = await teamOrThrow(trx, company.id, teamId);
      const user = team.users.find((u) => u.id === userId);
      if (!user) throw userNotFound();
      await removeTeamMember(trx, teamId, userId);
      await audit(
        request,
        {
          action: 'team.member.remove',
          targetType: 'team',
          targetId: teamId,
          targetLabel: team.name,
          companyId: company.id,
          before: { userId, email: user.email },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  app.get(
    `${TEAM}/modules-access`,
    { config: { policy: member } },
    async (request): Promise<{ modulesAccess: Team['modulesAccess'] }> => {
      const { teamId } = params(teamParamsSchema, request);
      const team = await teamOrThrow(db, policyCompany(request).id, teamId);
      return { modulesAccess: team.modulesAccess };
    },
  );

  app.put(
    `${TEAM}/modules-access`,
    { config: { policy: editModulesAccess } },
    async (request): Promise<{ modulesAccess: Team['modulesAccess'] }> => {
      const company = policyCompany(request);
      const { teamId } = params(teamParamsSchema, request);
      const parsed = moduleAccessPutSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(nameUnknownFields(parsed.error), 'field');
      const access = parsed.data;
      await db.transaction().execute(async (trx) => {
        const team = await teamOrThrow(trx, company.id, teamId);
        const changed = MODULES.filter((m) => team.modulesAccess[m] !== access[m]);
        await setTeamModulesAccess(trx, company.id, teamId, access);
        if (changed.length) {
          await audit(
            request,
            {
              action: 'team.modules.update',
              targetType: 'team',
              targetId: teamId,
              targetLabel: team.name,
              companyId: company.id,
              before: Object.fromEntries(changed.map((m) => [m, team.modulesAccess[m]])),
              after: Object.fromEntries(changed.map((m) => [m, access[m]])),
            },
            trx,
          );
        }
      });
      return { modulesAccess: (await teamOrThrow(db, company.id, teamId)).modulesAccess };
    },
  );

  app.get(
    `${TEAM}/assigned-objects`,
    { config: { policy: editUsersAndTeams } },
    async (request): Promise<{ results: AssignedObject[] }> => {
      const company = policyCompany(request);
      const { teamId } = params(teamParamsSchema, request);
      await teamOrThrow(db, company.id, teamId);
      return { results: await teamAssignedObjects(db, company.id, teamId) };
    },
  );
}
