/**
 * Notices of evidence requests (issue 8), what they are and how they read: the bell's title and body
 * (the mail's subject and text say the same) for assignment, status change, comment, due soon and
 * overdue. Contract: shared/src/core/requests ("Notifications"). Who hears them: notice-audience.ts;
 * queueing them: notices.ts; sending them: notice-delivery.ts.
 */
import type { Kysely } from 'kysely';
import { formatDate } from '@portal/shared/core/dates';
import { REQUEST_STATUS_LABELS, type RequestStatus } from '@portal/shared/core/requests';
import type { Database } from '../../db/schema';

export type RequestNoticeKind = 'created' | 'assigned' | 'status' | 'comment' | 'due_soon' | 'overdue';

export interface RequestNotice {
  kind: RequestNoticeKind;
  request: { id: string; companyId: string; reference: string; title: string };
  /** Who did it (never notified); null for the sweep. */
  actorId: string | null;
  /** Recipients; the actor, suspended users and users who no longer see the request are dropped. */
  userIds: string[];
  /** Internal comments: staff recipients only. */
  staffOnly?: boolean;
  /**
   * comment: the comment's text (the body shows its first 200 characters). The other kinds' bodies are
   * built here from the request as the transaction sees it (status, reason, due date) and the actor.
   */
  summary?: string;
  /** due_soon: the day the days left are counted from (the sweep's UTC day); default the server's day. */
  today?: string;
}

/** The comment's start shown in the bell and the mail. */
export const COMMENT_NOTICE_CHARS = 200;
const DAY_MS = 86_400_000;

export const requestLink = (requestId: string) => `/requests/${requestId}`;

/** Titles and subjects are one line, whatever the request's title holds. */
export const oneLine = (text: string) => text.replace(/[\s\p{Cc}]+/gu, ' ').trim();

/** Whole days from `today` to `day` (both YYYY-MM-DD). */
export function daysUntil(day: string, today: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

interface RequestState {
  status: RequestStatus;
  dueDate: string | null;
  returnReason: string | null;
}

export async function requestStates(db: Kysely<Database>, ids: string[]): Promise<Map<string, RequestState>> {
  const states = new Map<string, RequestState>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('requests')
      .select(['id', 'status', 'due_date', 'return_reason'])
      .where('id', 'in', unique.slice(i, i + 500))
      .execute();
    for (const row of rows)
      states.set(row.id, { status: row.status, dueDate: row.due_date, returnReason: row.return_reason });
  }
  return states;
}

/** What a status change reads as: `Submitted by Laura Chen`, `Returned by Laura Chen: <reason>`, `Reopened by …`. */
function statusBody(state: RequestState, actor: string): string {
  switch (state.status) {
    case 'submitted':
      return `Submitted by ${actor}`;
    case 'returned':
      return state.returnReason ? `Returned by ${actor}: ${state.returnReason}` : `Returned by ${actor}`;
    case 'accepted':
      return `Accepted by ${actor}`;
    case 'canceled':
      return `Canceled by ${actor}`;
    case 'open':
      return `Reopened by ${actor}`;
  }
}

/** The bell's title and body of a notice (the mail's subject and text say the same). */
export function requestNoticeText(
  notice: RequestNotice,
  state: RequestState | undefined,
  actorName: string,
): { title: string; body: string } {
  const { reference, title } = notice.request;
  const due = state?.dueDate ?? null;
  switch (notice.kind) {
    case 'created':
    case 'assigned':
      return {
        title: `New request ${reference}: ${title}`,
        body: `${actorName} asked for evidence${due ? `, due ${formatDate(due)}` : ''}`,
      };
    case 'status': {
      const status = state?.status ?? 'open';
      return {
        title: `${reference} ${REQUEST_STATUS_LABELS[status]}: ${title}`,
        body: state ? statusBody(state, actorName) : '',
      };
    }
    case 'comment':
      return {
        title: `New comment on ${reference}: ${title}`,
        body: (notice.summary ?? '').slice(0, COMMENT_NOTICE_CHARS),
      };
    case 'due_soon': {
      const days = due ? Math.max(0, daysUntil(due, notice.today ?? new Date().toISOString().slice(0, 10))) : 0;
      const when = days === 0 ? 'is due today' : `is due in ${days} ${days === 1 ? 'day' : 'days'}`;
      return { title: `${reference} ${when}: ${title}`, body: due ? `Due ${formatDate(due)}` : '' };
    }
    case 'overdue':
      return { title: `${reference} is overdue: ${title}`, body: due ? `It was due ${formatDate(due)}` : '' };
  }
}
