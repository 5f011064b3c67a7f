/**
 * Reminders of evidence requests (issue 8): who is due one. The sweep that sends them is reminders.ts.
 * Contract: shared/src/core/requests ("Notifications").
 */
import type { Kysely } from 'kysely';
import {
  REQUEST_ACTIVE_STATUSES,
  REQUEST_CLIENT_ACTION_STATUSES,
  REQUEST_DUE_SOON_DAYS,
} from '@portal/shared/core/requests';
import type { Database } from '../../db/schema';

const DAY_MS = 86_400_000;

/** The UTC day of an instant (YYYY-MM-DD): the server's "today". */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

export type ReminderKind = 'due_soon' | 'overdue';

export interface ReminderTarget {
  id: string;
  companyId: string;
  reference: string;
  title: string;
  dueDate: string;
  userIds: Set<string>;
}

/**
 * The (request, user) pairs of one reminder kind on `today` not claimed yet, grouped by request (active
 * users only; whether they still see the request is the sender's to check): due soon, the assignees
 * (teams expanded) of requests waiting on the client due within REQUEST_DUE_SOON_DAYS days; overdue,
 * the assignees and the requester of active requests past their due day.
 */
export async function reminderTargets(
  db: Kysely<Database>,
  kind: ReminderKind,
  today: string,
): Promise<ReminderTarget[]> {
  const soon = kind === 'due_soon';
  const base = () =>
    db
      .selectFrom('requests')
      .where('requests.status', 'in', soon ? [...REQUEST_CLIENT_ACTION_STATUSES] : [...REQUEST_ACTIVE_STATUSES])
      .where('requests.due_date', 'is not', null)
      .$call((q) =>
        soon
          ? q
              .where('requests.due_date', '>=', today)
              .where('requests.due_date', '<=', addDays(today, REQUEST_DUE_SOON_DAYS))
          : q.where('requests.due_date', '<', today),
      );
  const columns = [
    'requests.id',
    'requests.company_id',
    'requests.reference',
    'requests.title',
    'requests.due_date',
  ] as const;
  const direct = base()
    .innerJoin('request_assignees', 'request_assignees.request_id', 'requests.id')
    .select([...columns, 'request_assignees.user_id as user_id']);
  const viaTeams = base()
    .innerJoin('request_teams', 'request_teams.request_id', 'requests.id')
    .innerJoin('team_members', 'team_members.team_id', 'request_teams.team_id')
    .select([...columns, 'team_members.user_id as user_id']);
  const requesters = base()
    .where('requests.requester_id', 'is not', null)
    .select([...columns, 'requests.requester_id as user_id'])
    .$narrowType<{ user_id: string }>();
  const pairs = db
    .selectFrom((soon ? direct.union(viaTeams) : direct.union(viaTeams).union(requesters)).as('pairs'))
    .innerJoin('users', 'users.id', 'pairs.user_id')
    .selectAll('pairs')
    .where('users.status', '=', 'active')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('request_reminders')
            .select('request_reminders.request_id')
            .whereRef('request_reminders.request_id', '=', 'pairs.id')
            .whereRef('request_reminders.user_id', '=', 'pairs.user_id')
            .whereRef('request_reminders.due_date', '=', 'pairs.due_date')
            .where('request_reminders.kind', '=', kind),
        ),
      ),
    )
    .orderBy('pairs.id');
  const targets = new Map<string, ReminderTarget>();
  for (const row of await pairs.execute()) {
    if (!row.user_id || !row.due_date) continue;
    let target = targets.get(row.id);
    if (!target) {
      target = {
        id: row.id,
        companyId: row.company_id,
        reference: row.reference,
        title: row.title,
        dueDate: row.due_date,
        userIds: new Set(),
      };
      targets.set(row.id, target);
    }
    target.userIds.add(row.user_id);
  }
  return [...targets.values()];
}

/**
 * Records the reminders `today` would send as sent, sending nothing: the demo seed's requests tell a
 * story whose reminders went out long ago, so a fresh portal does not start with a burst of them.
 */
export async function markRequestRemindersSent(db: Kysely<Database>, today: string): Promise<number> {
  const createdAt = new Date().toISOString();
  let claimed = 0;
  for (const kind of ['due_soon', 'overdue'] as const) {
    const rows = (await reminderTargets(db, kind, today)).flatMap((target) =>
      [...target.userIds].map((userId) => ({
        request_id: target.id,
        user_id: userId,
        kind,
        due_date: target.dueDate,
        created_at: createdAt,
      })),
    );
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('request_reminders')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    claimed += rows.length;
  }
  return claimed;
}
