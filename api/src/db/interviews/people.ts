/**
 * Who may take part (the rules of shared/src/core/interviews): which users may organize, interview or
 * attend a project's interviews, and the form's pickers.
 */
import type { Kysely } from 'kysely';
import type { InterviewPeople, InterviewPerson } from '@portal/shared/core/interviews';
import { orderByName } from '../roster';
import type { Database } from '../schema';

/** The roles that may organize a project's interviews. */
export const ORGANIZER_ROLES = ['Lead Consultant', 'Consultant'] as const;

/** Which of these users may organize: active, holding Lead Consultant or Consultant on the project. */
export async function organizerIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('project_members as pm')
    .innerJoin('users as u', 'u.id', 'pm.user_id')
    .select('u.id')
    .where('pm.project_id', '=', projectId)
    .where('pm.role', 'in', ORGANIZER_ROLES)
    .where('u.status', '=', 'active')
    .where('u.id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of these users may interview: active staff, auditors only with a role on the project. */
export async function interviewerIds(db: Kysely<Database>, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', ids)
    .where('u.status', '=', 'active')
    .where('u.is_tevora', '=', true)
    .where((eb) =>
      eb.or([
        eb('u.is_auditor', '=', false),
        eb.exists(
          eb
            .selectFrom('project_members as pm')
            .select('pm.user_id')
            .whereRef('pm.user_id', '=', 'u.id')
            .where('pm.project_id', '=', projectId),
        ),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of these users may attend: active, on the project's roster or members of its company whose access stands. */
export async function attendeeIds(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', ids)
    .where('u.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('project_members as pm')
            .select('pm.user_id')
            .whereRef('pm.user_id', '=', 'u.id')
            .where('pm.project_id', '=', project.id),
        ),
        eb.exists(
          eb
            .selectFrom('company_memberships as m')
            .select('m.user_id')
            .whereRef('m.user_id', '=', 'u.id')
            .where('m.company_id', '=', project.companyId)
            .where('m.access_revoked_at', 'is', null),
        ),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The form's pickers, by name. `staffDirectory` false (a client caller) lists as interviewers only the
 * staff of the project's roster, whom the caller sees there anyway, rather than every staff member.
 */
export async function interviewPeople(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  { staffDirectory }: { staffDirectory: boolean },
): Promise<InterviewPeople> {
  const onRoster = (roles?: readonly string[]) =>
    db
      .selectFrom('project_members as pm')
      .select('pm.user_id')
      .where('pm.project_id', '=', project.id)
      .$call((q) => (roles ? q.where('pm.role', 'in', roles as typeof ORGANIZER_ROLES) : q));
  const users = () =>
    db
      .selectFrom('users as u')
      .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
      .where('u.status', '=', 'active');
  const [organizers, interviewers, attendees] = await Promise.all([
    users().where('u.id', 'in', onRoster(ORGANIZER_ROLES)).$call(orderByName).execute(),
    users()
      .where('u.is_tevora', '=', true)
      .where((eb) =>
        staffDirectory
          ? eb.or([eb('u.is_auditor', '=', false), eb('u.id', 'in', onRoster())])
          : eb('u.id', 'in', onRoster()),
      )
      .$call(orderByName)
      .execute(),
    users()
      .where((eb) =>
        eb.or([
          eb('u.id', 'in', onRoster()),
          eb(
            'u.id',
            'in',
            db
              .selectFrom('company_memberships')
              .select('user_id')
              .where('company_id', '=', project.companyId)
              .where('access_revoked_at', 'is', null),
          ),
        ]),
      )
      .$call(orderByName)
      .execute(),
  ]);
  const toPerson = (r: { id: string; first_name: string; last_name: string; email: string }): InterviewPerson => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
  });
  return {
    organizers: organizers.map(toPerson),
    interviewers: interviewers.map(toPerson),
    attendees: attendees.map(toPerson),
  };
}
