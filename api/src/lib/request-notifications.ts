/**
 * Notifications of evidence requests (issue 8): the bell and e-mail for assignment, status change,
 * comment, due soon and overdue. Contract: shared/src/core/requests ("Notifications"). The bells are
 * written in the change's transaction; the mails go out after it commits (deliverRequestNotices).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { formatDate } from '@portal/shared/core/dates';
import {
  REQUEST_ACTIVE_STATUSES,
  REQUEST_CLIENT_ACTION_STATUSES,
  REQUEST_DUE_SOON_DAYS,
  REQUEST_STATUS_LABELS,
  type RequestStatus,
} from '@portal/shared/core/requests';
import { effectiveModuleAccess } from '@portal/shared/core/modules';
import { findCompanyById, type CompanyRecord } from '../db/companies';
import { createNotifications, type NewNotification } from '../db/notifications';
import { requestVisible, type RequestScope } from '../db/request-access';
import { displayName, requestParticipantsByRequest } from '../db/requests';
import type { Database } from '../db/schema';
import { toBool, toNullableBool } from '../db/values';
import { mailBody } from './password-reset';
import type { OutgoingMail } from './mailer';

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

/** One mail to send once the change commits; the link becomes `<PUBLIC_URL><path>` when PUBLIC_URL is set. */
export interface RequestMail {
  to: string;
  subject: string;
  body: string;
  /** `/requests/<id>` */
  path: string;
}

/** What a change queued: bells to refresh and mails to send once its transaction commits. */
export interface PendingNotices {
  userIds: string[];
  mails: RequestMail[];
}

export const noPendingNotices = (): PendingNotices => ({ userIds: [], mails: [] });

/** Several changes' notices as one. */
export function mergePendingNotices(...all: PendingNotices[]): PendingNotices {
  return { userIds: [...new Set(all.flatMap((p) => p.userIds))], mails: all.flatMap((p) => p.mails) };
}

/** The comment's start shown in the bell and the mail. */
export const COMMENT_NOTICE_CHARS = 200;
/** Mails of one delivery go out this many at a time. */
const MAIL_CONCURRENCY = 4;
const DAY_MS = 86_400_000;

export const requestLink = (requestId: string) => `/requests/${requestId}`;

/** Titles and subjects are one line, whatever the request's title holds. */
const oneLine = (text: string) => text.replace(/[\s\p{Cc}]+/gu, ' ').trim();

/** Whole days from `today` to `day` (both YYYY-MM-DD). */
export function daysUntil(day: string, today: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

export interface RequestRecipient {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: 'active' | 'suspended';
  isTevora: boolean;
  isAuditor: boolean;
  isAdmin: boolean;
}

/** Ids per query of the audience's batches. */
const BATCH = 500;

/**
 * Who may still hear about a request: active users who see it now (the company theirs, the requests
 * module on for them there, and the request visible to them: the rules of db/companies.ts,
 * db/module-access.ts and db/request-access.ts, asked for many users at once). Answers are kept, so
 * one change or one sweep asks each question once.
 */
export class RequestAudience {
  private readonly users = new Map<string, RequestRecipient | null>();
  private readonly companies = new Map<string, Promise<CompanyRecord | null>>();
  private readonly scopes = new Map<string, RequestScope | null>();
  private readonly visible = new Map<string, boolean>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The users of `ids` (unknown ids: null), loaded once. */
  async usersOf(ids: string[]): Promise<Map<string, RequestRecipient | null>> {
    const missing = [...new Set(ids)].filter((id) => !this.users.has(id));
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'status', 'is_tevora', 'is_auditor', 'is_admin'])
        .where('id', 'in', batch)
        .execute();
      for (const id of batch) this.users.set(id, null);
      for (const row of rows) {
        this.users.set(row.id, {
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          status: row.status,
          isTevora: toBool(row.is_tevora),
          isAuditor: toBool(row.is_auditor),
          isAdmin: toBool(row.is_admin),
        });
      }
    }
    return new Map(ids.map((id) => [id, this.users.get(id) ?? null]));
  }

  private companyOf(companyId: string): Promise<CompanyRecord | null> {
    let company = this.companies.get(companyId);
    if (!company) {
      company = findCompanyById(this.db, companyId);
      this.companies.set(companyId, company);
    }
    return company;
  }

  /**
   * Learns how each of `users` sees the company's requests (null: the company or its requests module
   * is not theirs), a few queries per BATCH users whatever their number: the company visible to them
   * (staff who are not auditors: every company; auditors: those of their projects; clients: their
   * memberships not revoked), then the requests module (the company's value; for clients their own,
   * else their teams'), then the scope (all: staff who are not auditors and client company admins).
   */
  private async learnScopes(companyId: string, users: RequestRecipient[]): Promise<void> {
    const missing = [...new Map(users.map((u) => [u.id, u])).values()].filter(
      (u) => !this.scopes.has(`${u.id}\u0000${companyId}`),
    );
    if (missing.length === 0) return;
    const company = await this.companyOf(companyId);
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const roles = new Map<string, 'admin' | 'member'>();
      const auditing = new Set<string>();
      const own = new Map<string, boolean | null>();
      const teams = new Map<string, (boolean | null)[]>();
      const clientIds = batch.filter((u) => !u.isTevora).map((u) => u.id);
      const auditorIds = batch.filter((u) => u.isTevora && u.isAuditor).map((u) => u.id);
      if (company && company.modulesAccess.requests) {
        if (clientIds.length > 0) {
          const memberships = await this.db
            .selectFrom('company_memberships')
            .select(['user_id', 'role'])
            .where('company_id', '=', companyId)
            .where('user_id', 'in', clientIds)
            .where('access_revoked_at', 'is', null)
            .execute();
          for (const row of memberships) roles.set(row.user_id, row.role);
        }
        const memberIds = [...roles.keys()];
        if (memberIds.length > 0) {
          const ownRows = await this.db
            .selectFrom('user_modules_access')
            .select(['user_id', 'enabled'])
            .where('company_id', '=', companyId)
            .where('module', '=', 'requests')
            .where('user_id', 'in', memberIds)
            .execute();
          for (const row of ownRows) own.set(row.user_id, toNullableBool(row.enabled));
          const teamRows = await this.db
            .selectFrom('team_members')
            .innerJoin('teams', 'teams.id', 'team_members.team_id')
            .leftJoin('team_modules_access', (join) =>
              join
                .onRef('team_modules_access.team_id', '=', 'teams.id')
                .on('team_modules_access.module', '=', 'requests'),
            )
            .select(['team_members.user_id', 'team_modules_access.enabled'])
            .where('teams.company_id', '=', companyId)
            .where('team_members.user_id', 'in', memberIds)
            .execute();
          for (const row of teamRows)
            teams.set(row.user_id, [...(teams.get(row.user_id) ?? []), toNullableBool(row.enabled)]);
        }
        if (auditorIds.length > 0) {
          const projectRoles = await this.db
            .selectFrom('project_members')
            .innerJoin('projects', 'projects.id', 'project_members.project_id')
            .select('project_members.user_id')
            .distinct()
            .where('projects.company_id', '=', companyId)
            .where('project_members.user_id', 'in', auditorIds)
            .execute();
          for (const row of projectRoles) auditing.add(row.user_id);
        }
      }
      for (const user of batch) {
        let scope: RequestScope | null = null;
        if (company && company.modulesAccess.requests) {
          if (user.isTevora) {
            if (!user.isAuditor || auditing.has(user.id))
              scope = { callerId: user.id, all: !user.isAuditor, auditor: user.isAuditor };
          } else {
            const role = roles.get(user.id);
            const modules = effectiveModuleAccess(
              company.modulesAccess,
              { requests: own.get(user.id) ?? null },
              (teams.get(user.id) ?? []).map((enabled) => ({ requests: enabled })),
            );
            if (role && modules.requests) scope = { callerId: user.id, all: role === 'admin', auditor: false };
          }
        }
        this.scopes.set(`${user.id}\u0000${companyId}`, scope);
      }
    }
  }

  /** How the user sees the company's requests, or null when the company or its requests module is not theirs. */
  private async scopeOf(user: RequestRecipient, companyId: string): Promise<RequestScope | null> {
    const key = `${user.id}\u0000${companyId}`;
    if (!this.scopes.has(key)) await this.learnScopes(companyId, [user]);
    return this.scopes.get(key) ?? null;
  }

  /** Whether the user sees the request now. */
  async sees(user: RequestRecipient, request: { id: string; companyId: string }): Promise<boolean> {
    const known = this.visible.get(`${user.id}\u0000${request.id}`);
    if (known !== undefined) return known;
    return (await this.visibleIds(user, request.companyId, [request.id])).has(request.id);
  }

  /** The ids among `ids` (requests of one company) the user sees now; `sees` then answers for them without asking again. */
  async visibleIds(user: RequestRecipient, companyId: string, ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    const scope = await this.scopeOf(user, companyId);
    const seen = new Set<string>();
    if (scope?.all) for (const id of unique) seen.add(id);
    else if (scope) {
      for (let i = 0; i < unique.length; i += BATCH) {
        const rows = await this.db
          .selectFrom('requests')
          .select('id')
          .where('id', 'in', unique.slice(i, i + BATCH))
          .where('company_id', '=', companyId)
          .where((eb) => requestVisible(eb, scope))
          .execute();
        for (const row of rows) seen.add(row.id);
      }
    }
    for (const id of unique) this.visible.set(`${user.id}\u0000${id}`, seen.has(id));
    return seen;
  }

  /**
   * Asks at once who of the notices' recipients sees which of their requests (scopes per company for
   * all of them together, then the scoped users' requests in batches), so that one notice or many (an
   * import, a bulk change, a sweep) cost a few queries, not several per person and request.
   */
  async learn(notices: RequestNotice[]): Promise<void> {
    const wanted = new Map<string, Map<string, Set<string>>>();
    for (const notice of notices) {
      const byUser = wanted.get(notice.request.companyId) ?? new Map<string, Set<string>>();
      wanted.set(notice.request.companyId, byUser);
      for (const userId of notice.userIds)
        byUser.set(userId, (byUser.get(userId) ?? new Set<string>()).add(notice.request.id));
    }
    const users = await this.usersOf([...new Set(notices.flatMap((n) => n.userIds))]);
    for (const [companyId, byUser] of wanted) {
      const active = [...byUser.keys()].flatMap((id) => {
        const user = users.get(id);
        return user && user.status === 'active' ? [user] : [];
      });
      await this.learnScopes(companyId, active);
      for (const user of active) {
        const unknown = [...byUser.get(user.id)!].filter((id) => !this.visible.has(`${user.id}\u0000${id}`));
        if (unknown.length > 0) await this.visibleIds(user, companyId, unknown);
      }
    }
  }

  /** The recipients of `userIds` who may hear about the request: active, not the actor, staff when `staffOnly`, seeing it. */
  async recipients(
    request: { id: string; companyId: string },
    userIds: string[],
    options: { actorId?: string | null; staffOnly?: boolean } = {},
  ): Promise<RequestRecipient[]> {
    const ids = [...new Set(userIds)].filter((id) => id !== options.actorId);
    const users = await this.usersOf(ids);
    const out: RequestRecipient[] = [];
    for (const id of ids) {
      const user = users.get(id);
      if (!user || user.status !== 'active') continue;
      if (options.staffOnly && !user.isTevora) continue;
      if (await this.sees(user, request)) out.push(user);
    }
    return out;
  }
}

interface RequestState {
  status: RequestStatus;
  dueDate: string | null;
  returnReason: string | null;
}

async function requestStates(db: Kysely<Database>, ids: string[]): Promise<Map<string, RequestState>> {
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

/**
 * Creates the bell notifications in `trx` (link /requests/:id) for every recipient who may still hear
 * about the request, and returns what to deliver after the commit. Pass an `audience` to share its
 * answers between calls (the sweep does).
 */
export async function queueRequestNotices(
  trx: Kysely<Database>,
  notices: RequestNotice[],
  audience = new RequestAudience(trx),
): Promise<PendingNotices> {
  const pending = noPendingNotices();
  if (notices.length === 0) return pending;
  const states = await requestStates(
    trx,
    notices.map((n) => n.request.id),
  );
  const actors = await audience.usersOf(notices.flatMap((n) => (n.actorId ? [n.actorId] : [])));
  // Who sees what, asked for all recipients at once (recipients() below then answers from it).
  await audience.learn(notices);
  const touched = new Set<string>();
  const bells: NewNotification[] = [];
  for (const notice of notices) {
    const state = states.get(notice.request.id);
    // The request went meanwhile (deleted in the same change): nobody to tell.
    if (!state) continue;
    const actor = notice.actorId ? actors.get(notice.actorId) : null;
    const text = requestNoticeText(notice, state, actor ? displayName(actor) : 'Someone');
    const title = oneLine(text.title);
    const path = requestLink(notice.request.id);
    for (const user of await audience.recipients(notice.request, notice.userIds, {
      actorId: notice.actorId,
      staffOnly: notice.staffOnly,
    })) {
      bells.push({ userId: user.id, companyId: notice.request.companyId, title, body: text.body, link: path });
      touched.add(user.id);
      pending.mails.push({ to: user.email, subject: title, body: text.body, path });
    }
  }
  await createNotifications(trx, bells);
  pending.userIds = [...touched];
  return pending;
}

/** The mail of a notice: its text, then the link (only with PUBLIC_URL: a link taken from a request's Host could point anywhere). */
export function requestMailMessage(mail: RequestMail, publicUrl: string | null): OutgoingMail {
  const lines = [mail.body, publicUrl ? `Open it: ${publicUrl}${mail.path}` : ''].filter(Boolean);
  return { to: mail.to, subject: mail.subject, text: lines.join('\n\n'), html: mailBody(lines).html };
}

/** Runs `work` on each item, `concurrency` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
}

/** How long closing the app waits for notices still going out (and for a reminder sweep under way). */
export const REQUEST_CLOSE_WAIT_MS = 5_000;

/**
 * The deliveries under way, per app. Keyed by the app's HTTP server: every encapsulated plugin of one
 * app is its own FastifyInstance object, but they all share that server.
 */
const deliveries = new WeakMap<object, Set<Promise<void>>>();

function trackDelivery(app: FastifyInstance, delivery: Promise<void>): void {
  let running = deliveries.get(app.server);
  if (!running) {
    running = new Set();
    deliveries.set(app.server, running);
  }
  running.add(delivery);
  const done = () => running.delete(delivery);
  delivery.then(done, done);
}

/** Waits for `work` at most `ms` milliseconds (a timer that holds nothing open); true when it settled. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For the app's onClose (modules/requests/reminders.ts registers it): waits for the notices still going
 * out, at most `ms` milliseconds, so a slow mail server neither loses a mail a moment from leaving nor
 * holds the shutdown. What is still under way then is logged and left.
 */
export async function closeRequestDeliveries(app: FastifyInstance, ms = REQUEST_CLOSE_WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  const running = deliveries.get(app.server);
  // Deliveries a finishing one started (a sweep's next batch) are waited for too, within the same time.
  while (running && running.size > 0) {
    if (!(await settledWithin(Promise.all(running), deadline - Date.now()))) {
      app.log.warn({ deliveries: running.size }, 'request notices were still going out when the app closed');
      return;
    }
  }
}

/**
 * After the commit: refreshes the bells and sends the mails in the background (bounded concurrency;
 * failures logged, never thrown). Routes do not await it; tests may. Closing the app waits for it a
 * while (closeRequestDeliveries).
 */
export function deliverRequestNotices(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  pending: PendingNotices,
): Promise<void> {
  const delivery = deliver(app, log, pending);
  trackDelivery(app, delivery);
  return delivery;
}

async function deliver(app: FastifyInstance, log: FastifyBaseLogger, pending: PendingNotices): Promise<void> {
  try {
    const bells = pending.userIds.map((userId) =>
      app.liveEvents.touch(userId).catch((error: unknown) => log.warn({ err: error }, 'bell update failed')),
    );
    await eachLimited(pending.mails, MAIL_CONCURRENCY, async (mail) => {
      try {
        await app.mailer.send(requestMailMessage(mail, app.config.publicUrl));
      } catch (error) {
        const err = error as { code?: unknown; message?: unknown };
        log.warn(
          {
            code: typeof err.code === 'string' ? err.code : undefined,
            reason: String(err.message ?? ''),
            subject: mail.subject,
          },
          'request notification mail could not be sent',
        );
      }
    });
    await Promise.all(bells);
  } catch (error) {
    log.warn({ err: error }, 'request notifications could not be delivered');
  }
}

/** The people of a request: its requester and its assignees (team members expanded), active users only. */
export async function requestParticipants(
  db: Kysely<Database>,
  requestId: string,
): Promise<{ requesterId: string | null; assigneeIds: string[] }> {
  return (await requestParticipantsByRequest(db, [requestId])).get(requestId) ?? { requesterId: null, assigneeIds: [] };
}

/** Everyone who commented on the request (authors still known). */
export async function requestCommenterIds(db: Kysely<Database>, requestId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('request_comments')
    .select('author_id')
    .distinct()
    .where('request_id', '=', requestId)
    .where('author_id', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.author_id ? [r.author_id] : []));
}

// ---------------------------------------------------------------------------------------------
// Reminders: who is due one

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
