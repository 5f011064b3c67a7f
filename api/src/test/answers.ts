/**
 * The answer tests (`answers.test.ts` beside the routes): real answers of the api on the seeded data
 * (and on writes the tests make), each checked with the result schema of the operation its route was
 * registered from (lib/contract.ts keeps the operation in the route's `config.operation`;
 * `app.routePolicies` lists it). Result schemas are strict objects: no field missing, none of another
 * type, none undocumented.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { resultProblem } from '@portal/shared/core/answers';

/** `METHOD /path`, as the route was registered: `GET /api/v1/projects/:id/tasks`. */
export type OperationKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** The result schema of the operation the route `key` was registered from; throws when there is none. */
export function resultOf(app: FastifyInstance, key: string): z.ZodType {
  const route = app.routePolicies.find((r) => `${r.method} ${r.url}` === key);
  if (!route) throw new Error(`${key} is not a registered route`);
  if (!route.operation) throw new Error(`${key} was not registered from an operation`);
  if (!route.operation.result) throw new Error(`${key}: its operation has no result schema`);
  return route.operation.result;
}

/** `key url: path: message` of the first issue when `body` is not what the operation answers, or null. */
export function answerProblem(app: FastifyInstance, key: string, url: string, body: unknown): string | null {
  const found = resultProblem(resultOf(app, key), body);
  return found && `${key} ${url}: ${found}`;
}

/**
 * The operations each answer test calls and checks, by test file (under api/src): each test expects
 * every one of its operations answered at least once, and together they are every operation with a
 * result schema (lib/openapi.test.ts), so no result schema goes unchecked.
 */
export const ANSWER_TESTS: Record<string, readonly OperationKey[]> = {
  /** Reads of projects, tasks, controls, files and evidence requests. */
  'routes/api/v1/projects/answers.test.ts': [
    'GET /api/v1/projects/:id/tasks',
    'GET /api/v1/companies/:id/tasks',
    'GET /api/v1/projects/:id/tasks/:taskId',
    'GET /api/v1/companies/:id/projects',
    'GET /api/v1/companies/:id/projects/summary',
    'GET /api/v1/projects/:id',
    'GET /api/v1/projects/:id/controls',
    'GET /api/v1/projects/:id/controls/:controlId',
    'GET /api/v1/projects/:id/files',
    'GET /api/v1/projects/:id/files/:fileId',
    'GET /api/v1/companies/:id/requests',
    'GET /api/v1/requests/:id',
  ],
  /** Project writes, roster, comments, points of focus, folders, task files, trackers and interviews. */
  'routes/api/v1/projects/more-answers.test.ts': [
    'POST /api/v1/companies/:id/projects',
    'PATCH /api/v1/projects/:id',
    'POST /api/v1/projects/:id/status',
    'GET /api/v1/projects/:id/users',
    'GET /api/v1/projects/:id/assignable-users',
    'GET /api/v1/projects/roles/:userId/assignments',
    'PATCH /api/v1/projects/roles/:userId/assignments',
    'GET /api/v1/projects/:id/task-trackers',
    'POST /api/v1/projects/:id/task-trackers/apply',
    'GET /api/v1/projects/:id/assignees',
    'GET /api/v1/projects/:id/task-assignees',
    'POST /api/v1/projects/:id/tasks',
    'PATCH /api/v1/projects/:id/tasks/:taskId',
    'POST /api/v1/projects/:id/tasks/:taskId/status',
    'GET /api/v1/projects/:id/tasks/:taskId/comments',
    'POST /api/v1/projects/:id/tasks/:taskId/comments',
    'POST /api/v1/projects/:id/tasks/import',
    'POST /api/v1/projects/:id/controls',
    'PATCH /api/v1/projects/:id/controls/:controlId',
    'GET /api/v1/projects/:id/points-of-focus',
    'POST /api/v1/projects/:id/controls/:controlId/points-of-focus',
    'PATCH /api/v1/projects/:id/points-of-focus/:pointId',
    'POST /api/v1/projects/:id/files',
    'PATCH /api/v1/projects/:id/files/:fileId',
    'GET /api/v1/projects/:id/tasks/:taskId/files',
    'POST /api/v1/projects/:id/tasks/:taskId/files',
    'GET /api/v1/projects/:id/folders',
    'POST /api/v1/projects/:id/folders',
    'PATCH /api/v1/projects/:id/folders/:folderId',
    'GET /api/v1/projects/:id/interviews',
    'GET /api/v1/projects/:id/interview-people',
    'GET /api/v1/projects/:id/interviews/:interviewId',
    'POST /api/v1/projects/:id/interviews',
    'PATCH /api/v1/projects/:id/interviews/:interviewId',
    'POST /api/v1/projects/:id/interviews/:interviewId/cancel',
  ],
  /** Users, companies, company users, teams and the audit log. */
  'routes/api/v1/companies/answers.test.ts': [
    'GET /api/v1/users/profile/me',
    'PUT /api/v1/users/profile/me',
    'DELETE /api/v1/users/profile/me/avatar',
    'GET /api/v1/users/:id',
    'PATCH /api/v1/users/:id',
    'DELETE /api/v1/users/:id/avatar',
    'GET /api/v1/users/:id/status',
    'GET /api/v1/users/:id/assigned-objects',
    'GET /api/v1/users/:id/get-projects',
    'GET /api/v1/users/staff',
    'PUT /api/v1/users/admin/:id',
    'GET /api/v1/users/:id/practices',
    'PUT /api/v1/users/:id/practices',
    'GET /api/v1/companies',
    'POST /api/v1/companies',
    'GET /api/v1/companies/:id',
    'PATCH /api/v1/companies/:id',
    'PATCH /api/v1/companies/:id/modules-access',
    'GET /api/v1/companies/:id/access-permissions',
    'GET /api/v1/companies/:id/password-policy',
    'POST /api/v1/companies/:id/password-policy',
    'GET /api/v1/companies/:id/identity-provider',
    'PUT /api/v1/companies/:id/identity-provider',
    'POST /api/v1/companies/:id/domains',
    'POST /api/v1/companies/:id/domains/:domainId/verify',
    'POST /api/v1/companies/:id/domains/:domainId/confirm',
    'GET /api/v1/companies/:id/users',
    'POST /api/v1/companies/:id/users',
    'PATCH /api/v1/companies/:id/users/:userId/role',
    'DELETE /api/v1/companies/:id/users/:userId/revoke-access',
    'POST /api/v1/companies/:id/users/:userId/restore-access',
    'GET /api/v1/companies/:id/users/:userId/modules-access',
    'PATCH /api/v1/companies/:id/users/:userId/modules-access',
    'GET /api/v1/companies/:id/teams',
    'POST /api/v1/companies/:id/teams',
    'PATCH /api/v1/companies/:id/teams/:teamId',
    'GET /api/v1/companies/:id/teams/:teamId/modules-access',
    'PUT /api/v1/companies/:id/teams/:teamId/modules-access',
    'GET /api/v1/companies/:id/teams/:teamId/assigned-objects',
    'GET /api/v1/audit-log',
  ],
  /** Health, config, flags, settings, notifications, documents, transfers and reports. */
  /** Per-browser remote overrides. */
  'routes/api/v1/remote-overrides/remote-overrides.test.ts': [
    'GET /api/v1/remote-overrides',
    'PUT /api/v1/remote-overrides/:remote',
    'DELETE /api/v1/remote-overrides/:remote',
  ],
  'routes/api/v1/portal-config/answers.test.ts': [
    'GET /api/v1/health',
    'GET /api/v1/portal-config',
    'GET /api/v1/feature-flags',
    'GET /api/v1/feature-flags/definitions',
    'PUT /api/v1/feature-flags/:key',
    'GET /api/v1/system-settings',
    'POST /api/v1/system-settings',
    'POST /api/v1/system-settings/',
    'PUT /api/v1/system-settings/:id',
    'GET /api/v1/system-settings/:id/files',
    'PATCH /api/v1/system-settings/:id/files',
    'GET /api/v1/notifications',
    'POST /api/v1/notifications/read-all',
    'POST /api/v1/notifications/:id/read',
    'GET /api/v1/companies/:id/files',
    'GET /api/v1/files/:id/signed-url',
    'GET /api/v1/companies/:id/transfer-recipients',
    'GET /api/v1/companies/:id/transfers',
    'POST /api/v1/companies/:id/transfers',
    'GET /api/v1/transfers/:id',
    'GET /api/v1/companies/:id/reports/options',
    'GET /api/v1/companies/:id/reports/:kind',
  ],
  /** Practices, task trackers and evidence requests. */
  'routes/api/v1/requests/answers.test.ts': [
    'GET /api/v1/practices',
    'POST /api/v1/practices',
    'GET /api/v1/practices/:id',
    'PATCH /api/v1/practices/:id',
    'GET /api/v1/practices/:id/task-trackers',
    'POST /api/v1/practices/:id/task-trackers',
    'POST /api/v1/practices/:id/task-trackers/import',
    'GET /api/v1/task-trackers/:trackerId',
    'PATCH /api/v1/task-trackers/:trackerId',
    'PUT /api/v1/task-trackers/:trackerId/import',
    'POST /api/v1/companies/:id/requests',
    'GET /api/v1/companies/:id/requests/assignees',
    'POST /api/v1/companies/:id/requests/bulk',
    'POST /api/v1/companies/:id/requests/import',
    'PATCH /api/v1/requests/:id',
    'POST /api/v1/requests/:id/transitions',
    'GET /api/v1/requests/:id/history',
    'GET /api/v1/requests/:id/comments',
    'POST /api/v1/requests/:id/comments',
    'POST /api/v1/requests/:id/files',
  ],
};
