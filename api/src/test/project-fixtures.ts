/** Test data for the project api tests: people and sessions, rows the routes would make written directly, audit rows. */
import { randomUUID } from 'node:crypto';
import { CLOSED_TASK_STATUSES, type ProjectRole, type TaskDetail, type TaskStatus } from '@portal/shared/core/projects';
import { addCompanyMember, insertCompany } from '../db/companies';
import { addProjectMember, insertProject } from '../db/projects';
import { insertUser } from '../db/users';
import { nowIso } from '../db/values';
import type { TestApp } from './app';
import { companyId } from './identity';
import { ALL_MODULES } from './task-rows';

/** A date-only value `offset` days from today (UTC). */
export function day(offset = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset))
    .toISOString()
    .slice(0, 10);
}

/** A company of the test's own, so lists and counts hold only what the test made. */
export function newCompany(t: TestApp, name: string): Promise<string> {
  return insertCompany(t.database.db, { name, modulesAccess: ALL_MODULES });
}

let users = 0;

/** A new user (client unless `isTevora`), member of `companyIds`. */
export async function newUser(
  t: TestApp,
  options: {
    isTevora?: boolean;
    isAuditor?: boolean;
    status?: 'active' | 'suspended';
    companyIds?: string[];
    firstName?: string;
  } = {},
): Promise<{ id: string; email: string }> {
  users += 1;
  const email = `project-user-${users}-${randomUUID().slice(0, 8)}@example.test`;
  const id = await insertUser(t.database.db, {
    email,
    firstName: options.firstName ?? `Pat${String(users).padStart(3, '0')}`,
    lastName: 'Tester',
    isTevora: options.isTevora ?? false,
    isAuditor: options.isAuditor ?? false,
    status: options.status ?? 'active',
  });
  for (const companyId of options.companyIds ?? []) await addCompanyMember(t.database.db, companyId, id, 'member');
  return { id, email };
}

/** Every user's id by email (the demo users among them). */
export async function userIdsByEmail(t: TestApp): Promise<Record<string, string>> {
  const rows = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  return Object.fromEntries(rows.map((r) => [r.email, r.id]));
}

/** A session cookie for each of these users, by email. */
export async function cookiesFor(t: TestApp, emails: string[]): Promise<Record<string, string>> {
  const cookies: Record<string, string> = {};
  for (const email of emails) cookies[email] = await t.cookieFor(email);
  return cookies;
}

/** An active project of the company titled `title` and a unique suffix, with these role holders. */
export async function newActiveProject(
  t: TestApp,
  companyId: string,
  title: string,
  roles: [userId: string, role: ProjectRole][] = [],
): Promise<string> {
  const id = await insertProject(t.database.db, { companyId, title: `${title} ${randomUUID()}`, status: 'active' });
  for (const [userId, role] of roles) await addProjectMember(t.database.db, id, userId, role);
  return id;
}

/** The roster of the tests' Acme projects: consultant@demo.test Lead Consultant, lead@acme.test Client Lead. */
export function leadRoster(userIds: Record<string, string>): [userId: string, role: ProjectRole][] {
  return [
    [userIds['consultant@demo.test'], 'Lead Consultant'],
    [userIds['lead@acme.test'], 'Client Lead'],
  ];
}

/**
 * What most project api tests start from: Acme's id, every user's id by email, a session for each of
 * `emails`, and two active Acme projects titled `titles` with the lead roster.
 */
export async function acmeProjectsSetup(t: TestApp, titles: [string, string], emails: string[]) {
  const acmeId = await companyId(t, 'Acme Corp');
  const userIds = await userIdsByEmail(t);
  const cookies = await cookiesFor(t, emails);
  const projectId = await newActiveProject(t, acmeId, titles[0], leadRoster(userIds));
  const otherProjectId = await newActiveProject(t, acmeId, titles[1], leadRoster(userIds));
  return { acmeId, userIds, cookies, projectId, otherProjectId };
}

/** A task made through the api (201 expected), as its detail. */
export async function postTask(
  t: TestApp,
  cookie: string,
  projectId: string,
  payload: Record<string, unknown>,
): Promise<TaskDetail> {
  const res = await t.api({ method: 'POST', url: `/api/v1/projects/${projectId}/tasks`, cookie, payload });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as TaskDetail;
}

/**
 * A task written straight to the database (no rule checked), created at `createdAt` (lists sort by it; now
 * by default); a closed one closed then too.
 */
export async function insertTask(
  t: TestApp,
  projectId: string,
  options: {
    title?: string;
    referenceId?: string | null;
    status?: TaskStatus;
    dueDate?: string | null;
    parentId?: string | null;
    createdAt?: string;
    assigneeIds?: string[];
  } = {},
): Promise<string> {
  const project = await t.database.db
    .selectFrom('projects')
    .select('company_id')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  const createdAt = options.createdAt ?? nowIso();
  await t.database.db
    .insertInto('tasks')
    .values({
      id,
      project_id: projectId,
      company_id: project.company_id,
      parent_id: options.parentId ?? null,
      reference_id: options.referenceId ?? null,
      title: options.title ?? `Task ${id.slice(0, 6)}`,
      description: null,
      status: options.status ?? 'OPEN',
      due_date: options.dueDate ?? null,
      created_by: null,
      created_at: createdAt,
      updated_at: createdAt,
      completed_at: null,
      closed_at: CLOSED_TASK_STATUSES.includes(options.status ?? 'OPEN') ? createdAt : null,
    })
    .execute();
  for (const userId of options.assigneeIds ?? [])
    await t.database.db.insertInto('task_assignees').values({ task_id: id, user_id: userId }).execute();
  return id;
}

/** A control written straight to the database. */
export async function insertControl(t: TestApp, projectId: string, name: string, title = 'Control'): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await t.database.db
    .insertInto('controls')
    .values({ id, project_id: projectId, name, title, description: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** How many rows the table holds (to show a refused call wrote nothing). */
export async function rowCount(t: TestApp, table: 'projects' | 'tasks' | 'controls'): Promise<number> {
  const row = await t.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertFile(t: TestApp, projectId: string): Promise<string> {
  const id = randomUUID();
  await t.database.db
    .insertInto('files')
    .values({
      id,
      project_id: projectId,
      name: `evidence-${id.slice(0, 6)}.pdf`,
      content_type: 'application/pdf',
      size: 10,
      uploaded_by: null,
      created_at: nowIso(),
    })
    .execute();
  return id;
}

export async function userIdOf(t: TestApp, email: string): Promise<string> {
  return (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

export async function projectIdOf(t: TestApp, title: string): Promise<string> {
  return (await t.database.db.selectFrom('projects').select('id').where('title', '=', title).executeTakeFirstOrThrow())
    .id;
}

/** A call with a NUL character in one place: method, url, body, and the field or parameter the 400 must name. */
export type NulCase = [method: 'GET' | 'POST' | 'PATCH', url: string, payload: object | undefined, field: string];

/** Makes each call and expects 400 validation_failed naming its field as holding a NUL character. */
export async function expectNulRefused(t: TestApp, cookie: string, cases: NulCase[]): Promise<void> {
  for (const [method, url, payload, field] of cases) {
    const res = await t.api({ method, url, cookie, payload });
    expect({ url, status: res.statusCode, body: res.json() }).toMatchObject({
      url,
      status: 400,
      body: {
        code: 'validation_failed',
        details: [expect.objectContaining({ field, message: expect.stringMatching(/NUL character/) })],
      },
    });
  }
}

/** Audit rows of `action` about a target (a project, task, control...), oldest first. */
export async function auditRows(t: TestApp, action: string, targetId: string) {
  const rows = await t.database.db
    .selectFrom('audit_log')
    .select(['actor_email', 'before', 'after', 'company_id', 'target_type', 'target_label'])
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    ...r,
    before: r.before === null ? null : JSON.parse(r.before),
    after: r.after === null ? null : JSON.parse(r.after),
  }));
}
