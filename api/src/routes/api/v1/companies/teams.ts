import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import * as api from '@portal/shared/core/companies/api';
import { MODULES } from '@portal/shared/core/modules';
import type { Team } from '@portal/shared/core/settings';
import { isUniqueViolation } from '../../../../db/values';
import type { Database } from '../../../../db/schema';
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
} from '../../../../db/teams';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';

const teamNotFound = () => new HttpError(404, 'team_not_found');
const userNotFound = () => new HttpError(404, 'user_not_found');
const teamNameTakenError = () =>
  new HttpError(409, 'team_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another team of this company' },
  ]);

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

  route(app, api.listTeams, async (request) => ({ results: await listTeams(db, policyCompany(request).id) }));

  route(app, api.createTeam, async (request, reply) => {
    const company = policyCompany(request);
    const { name } = request.body;
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

  route(app, api.renameTeam, async (request) => {
    const company = policyCompany(request);
    const { teamId } = request.params;
    const { name } = request.body;
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

  route(app, api.deleteTeam, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId } = request.params;
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

  route(app, api.addTeamMember, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId, userId } = request.params;
    await addMembers(request, company.id, teamId, [userId], true);
    return reply.code(204).send();
  });

  route(app, api.addTeamMembers, async (request, reply) => {
    const company = policyCompany(request);
    await addMembers(request, company.id, request.params.teamId, request.query.userIds, false);
    return reply.code(204).send();
  });

  route(app, api.removeTeamMember, async (request, reply) => {
    const company = policyCompany(request);
    const { teamId, userId } = request.params;
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

  route(app, api.getTeamModulesAccess, async (request) => {
    const team = await teamOrThrow(db, policyCompany(request).id, request.params.teamId);
    return { modulesAccess: team.modulesAccess };
  });

  route(app, api.setTeamModulesAccess, async (request) => {
    const company = policyCompany(request);
    const { teamId } = request.params;
    const access = request.body;
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
  });

  route(app, api.listTeamAssignedObjects, async (request) => {
    const company = policyCompany(request);
    const { teamId } = request.params;
    await teamOrThrow(db, company.id, teamId);
    return { results: await teamAssignedObjects(db, company.id, teamId) };
  });
}
