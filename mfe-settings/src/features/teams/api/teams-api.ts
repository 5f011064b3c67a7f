import type { AssignedObject, CompanyUser, Team } from '@portal/shared/core/settings';
import type { ModuleAccess } from '@portal/shared/core/modules';
import { settingsApi } from '../../../app/settings-api';

const enc = encodeURIComponent;
const teamUrl = (companyId: string, teamId: string) => `/companies/${enc(companyId)}/teams/${enc(teamId)}`;

type TeamArgs = { companyId: string; teamId: string };

/** The teams list's tag: a deleted team invalidates the list alone, not the queries of the team itself. */
const TEAMS_LIST = { type: 'Teams' as const, id: 'LIST' };

/**
 * Teams change their members' effective module access: every change that can move it also
 * invalidates the shell's AccessPermissions (navigation follows without a reload) and the user views.
 */
const accessChanged = (companyId: string, teams: 'Teams' | typeof TEAMS_LIST = 'Teams') =>
  [teams, 'CompanyUsers', 'UserModules', { type: 'AccessPermissions' as const, id: companyId }] as const;

export const teamsApi = settingsApi.injectEndpoints({
  endpoints: (build) => ({
    settingsTeamsList: build.query<Team[], string>({
      query: (companyId) => `/companies/${enc(companyId)}/teams`,
      transformResponse: (body: { results: Team[] }) => body.results,
      providesTags: [TEAMS_LIST],
    }),
    settingsTeamsCreate: build.mutation<Team, { companyId: string; name: string }>({
      query: ({ companyId, name }) => ({ url: `/companies/${enc(companyId)}/teams`, method: 'POST', body: { name } }),
      invalidatesTags: ['Teams'],
    }),
    settingsTeamsRename: build.mutation<Team, TeamArgs & { name: string }>({
      query: ({ companyId, teamId, name }) => ({ url: teamUrl(companyId, teamId), method: 'PATCH', body: { name } }),
      invalidatesTags: ['Teams', 'CompanyUsers'],
    }),
    settingsTeamsDelete: build.mutation<void, TeamArgs>({
      query: ({ companyId, teamId }) => ({ url: teamUrl(companyId, teamId), method: 'DELETE' }),
      // not the deleted team's own queries: asked again, they would answer 404
      invalidatesTags: (_r, _e, { companyId }) => [...accessChanged(companyId, TEAMS_LIST)],
    }),
    settingsTeamsAddMember: build.mutation<void, TeamArgs & { userId: string }>({
      query: ({ companyId, teamId, userId }) => ({
        url: `${teamUrl(companyId, teamId)}/users/${enc(userId)}`,
        method: 'PUT',
      }),
      invalidatesTags: (_r, _e, { companyId }) => [...accessChanged(companyId)],
    }),
    settingsTeamsAddMembers: build.mutation<void, TeamArgs & { userIds: string[] }>({
      query: ({ companyId, teamId, userIds }) => ({
        url: `${teamUrl(companyId, teamId)}/users`,
        method: 'PUT',
        params: { userIds },
      }),
      invalidatesTags: (_r, _e, { companyId }) => [...accessChanged(companyId)],
    }),
    settingsTeamsRemoveMember: build.mutation<void, TeamArgs & { userId: string }>({
      query: ({ companyId, teamId, userId }) => ({
        url: `${teamUrl(companyId, teamId)}/users/${enc(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { companyId }) => [...accessChanged(companyId)],
    }),
    settingsTeamsModulesUpdate: build.mutation<
      { modulesAccess: ModuleAccess },
      TeamArgs & { modulesAccess: ModuleAccess }
    >({
      query: ({ companyId, teamId, modulesAccess }) => ({
        url: `${teamUrl(companyId, teamId)}/modules-access`,
        method: 'PUT',
        body: modulesAccess,
      }),
      invalidatesTags: (_r, _e, { companyId }) => [...accessChanged(companyId)],
    }),
    settingsTeamsAssignedObjects: build.query<AssignedObject[], TeamArgs>({
      query: ({ companyId, teamId }) => `${teamUrl(companyId, teamId)}/assigned-objects`,
      transformResponse: (body: { results: AssignedObject[] }) => body.results,
      providesTags: (_r, _e, { teamId }) => [{ type: 'Teams', id: `objects/${teamId}` }],
    }),
    /** Everyone the company's teams can take: its members, unpaged. */
    settingsTeamsCandidates: build.query<CompanyUser[], string>({
      query: (companyId) => ({ url: `/companies/${enc(companyId)}/users`, params: { ignorePagination: true } }),
      transformResponse: (body: { results: CompanyUser[] }) => body.results,
      providesTags: ['CompanyUsers'],
    }),
  }),
});

export const {
  useSettingsTeamsListQuery,
  useSettingsTeamsCreateMutation,
  useSettingsTeamsRenameMutation,
  useSettingsTeamsDeleteMutation,
  useSettingsTeamsAddMemberMutation,
  useSettingsTeamsAddMembersMutation,
  useSettingsTeamsRemoveMemberMutation,
  useSettingsTeamsModulesUpdateMutation,
  useSettingsTeamsAssignedObjectsQuery,
  useSettingsTeamsCandidatesQuery,
} = teamsApi;
