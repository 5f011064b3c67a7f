/** Test data for the evidence request tests of comments, files and reminders: requests written directly, people, mail. */
import { randomUUID } from 'node:crypto';
import type { RequestStatus } from '@portal/shared/core/requests';
import { addTeamMember, insertTeam } from '../db/teams';
import { nowIso } from '../db/values';
import type { TestApp } from './app';
import { readOutbox, type OutboxMail } from './identity';
import { multipart as multipartBody } from './multipart';
import { newUser } from './project-fixtures';

export type Person = { id: string; email: string; cookie: string };

/** A new user (client unless `isTevora`) with a session. */
export async function person(t: TestApp, options: Parameters<typeof newUser>[1] = {}): Promise<Person> {
  const user = await newUser(t, options);
  return { ...user, cookie: await t.cookieFor(user.email) };
}

let references = 0;

export interface TestRequest {
  id: string;
  companyId: string;
  reference: string;
  title: string;
}

/** A request as the create route would store it (no history, no notifications). */
export async function insertTestRequest(
  t: TestApp,
  input: {
    companyId: string;
    title?: string;
    status?: RequestStatus;
    dueDate?: string | null;
    requesterId?: string | null;
    assigneeIds?: string[];
    teamIds?: string[];
    projectId?: string | null;
    returnReason?: string | null;
  },
): Promise<TestRequest> {
  references += 1;
  const id = randomUUID();
  const reference = `TST-${String(references).padStart(4, '0')}-${id.slice(0, 4)}`;
  const title = input.title ?? `Evidence ${references}`;
  const now = nowIso();
  await t.database.db
    .insertInto('requests')
    .values({
      id,
      company_id: input.companyId,
      project_id: input.projectId ?? null,
      task_id: null,
      control_id: null,
      reference,
      number: null,
      title,
      description: null,
      internal_note: null,
      priority: 'medium',
      due_date: input.dueDate ?? null,
      status: input.status ?? 'open',
      return_reason: input.returnReason ?? null,
      requester_id: input.requesterId ?? null,
      created_by: input.requesterId ?? null,
      created_at: now,
      updated_at: now,
      submitted_at: null,
      accepted_at: null,
      canceled_at: null,
    })
    .execute();
  for (const userId of input.assigneeIds ?? [])
    await t.database.db.insertInto('request_assignees').values({ request_id: id, user_id: userId }).execute();
  for (const teamId of input.teamIds ?? [])
    await t.database.db.insertInto('request_teams').values({ request_id: id, team_id: teamId }).execute();
  return { id, companyId: input.companyId, reference, title };
}

export function setRequestStatus(t: TestApp, id: string, status: RequestStatus, returnReason: string | null = null) {
  return t.database.db
    .updateTable('requests')
    .set({ status, return_reason: returnReason })
    .where('id', '=', id)
    .execute();
}

/** A team of the company holding these users. */
export async function newTeam(t: TestApp, companyId: string, userIds: string[]): Promise<string> {
  const teamId = await insertTeam(t.database.db, companyId, `Team ${randomUUID().slice(0, 8)}`);
  for (const userId of userIds) await addTeamMember(t.database.db, teamId, userId);
  return teamId;
}

/** The bell notifications of a user linking to `link` (all when omitted), oldest first. */
export async function bellsOf(t: TestApp, userId: string, link?: string) {
  return t.database.db
    .selectFrom('notifications')
    .select(['title', 'body', 'link', 'company_id'])
    .where('user_id', '=', userId)
    .$if(link !== undefined, (q) => q.where('link', '=', link!))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The mails to `email` (subject matching `subject` when given). */
export function mailsTo(t: TestApp, email: string, subject?: string): OutboxMail[] {
  return readOutbox(t).filter((m) => m.to.includes(email) && (subject === undefined || m.subject === subject));
}

/** Waits until `check` holds (mails go out after the reply), at most a few seconds. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20), Buffer.from('\n%%EOF\n')]);
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  Buffer.alloc(64, 1),
]);

export type Part = { filename: string; data: Buffer; field?: string };

/** A multipart body of `files` parts. */
export function multipart(files: Part[]) {
  return multipartBody([], files);
}
