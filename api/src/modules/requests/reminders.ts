/**
 * Evidence requests (issue 8): reminders and the daily digest. A sweep runs at start and every
 * REQUEST_REMINDER_MINUTES (config; 0: never): "due soon" to the assignees of requests waiting on the client whose due
 * day is at most REQUEST_DUE_SOON_DAYS away, "overdue" to the assignees and the requester of active
 * requests past their due day (each once per request, user, kind and due date), and once a (UTC) day a
 * digest mail of their open requests to users who asked for daily e-mails. Every sending is claimed by
 * a row first (request_reminders, request_digests), so several instances never send one twice; mail
 * goes out only after the claim committed. Contract: shared/src/core/requests.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { formatDate } from '@portal/shared/core/dates';
import {
  REQUEST_ACTIVE_STATUSES,
  REQUEST_CLIENT_ACTION_STATUSES,
  REQUEST_DUE_SOON_DAYS,
  REQUEST_STATUS_LABELS,
  isRequestOverdue,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type { Database } from '../../db/schema';
import { nowIso } from '../../db/values';
import { escapeHtml } from '../../lib/html';
import {
  RequestAudience,
  deliverRequestNotices,
  queueRequestNotices,
  requestLink,
  type RequestNotice,
  type RequestRecipient,
} from './notices';
import { addDays, reminderTargets, utcDay, type ReminderKind, type ReminderTarget } from './reminder-targets';

/** Requests whose reminders one transaction claims. */
const REMINDER_BATCH = 100;
/** Requests one digest lists per company; the rest are counted. */
export const DIGEST_MAX_PER_COMPANY = 50;

/**
 * Claims and queues the reminders of a batch of requests in one transaction: each recipient who still
 * sees the request gets the reminder once (the claim row's primary key settles a race).
 *
 * A pair that cannot be told (the user no longer sees the request, or the requests module is off for
 * them) is claimed all the same, sending nothing: it is handled for this due date, so later sweeps do
 * not check it again every run. Should they see it again, the next due date (or kind) reminds them.
 */
async function remindBatch(app: FastifyInstance, kind: ReminderKind, targets: ReminderTarget[], today: string) {
  return app.db.transaction().execute(async (trx) => {
    const audience = new RequestAudience(trx);
    const createdAt = nowIso();
    const candidates: RequestNotice[] = targets.map((target) => ({
      kind,
      request: { id: target.id, companyId: target.companyId, reference: target.reference, title: target.title },
      actorId: null,
      userIds: [...target.userIds],
      today,
    }));
    await audience.learn(candidates);
    const notices: RequestNotice[] = [];
    for (const [i, candidate] of candidates.entries()) {
      const target = targets[i];
      const reachable = new Set((await audience.recipients(candidate.request, candidate.userIds)).map((u) => u.id));
      const claimed: string[] = [];
      for (const userId of candidate.userIds) {
        const inserted = await trx
          .insertInto('request_reminders')
          .values({ request_id: target.id, user_id: userId, kind, due_date: target.dueDate, created_at: createdAt })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (reachable.has(userId) && Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) claimed.push(userId);
      }
      if (claimed.length > 0) notices.push({ ...candidate, userIds: claimed });
    }
    return queueRequestNotices(trx, notices, audience);
  });
}

interface DigestRequest {
  id: string;
  companyId: string;
  companyName: string;
  reference: string;
  title: string;
  status: RequestStatus;
  dueDate: string | null;
}

/** Users who asked for daily e-mails, have not had today's digest, and have open requests (before visibility). */
async function digestCandidates(db: Kysely<Database>, today: string): Promise<RequestRecipient[]> {
  const staffRequested = db
    .selectFrom('requests')
    .select('requests.requester_id as user_id')
    .where('requests.status', 'in', [...REQUEST_ACTIVE_STATUSES])
    .where('requests.requester_id', 'is not', null);
  const assigned = db
    .selectFrom('requests')
    .innerJoin('request_assignees', 'request_assignees.request_id', 'requests.id')
    .select('request_assignees.user_id as user_id')
    .where('requests.status', 'in', [...REQUEST_CLIENT_ACTION_STATUSES]);
  const viaTeams = db
    .selectFrom('requests')
    .innerJoin('request_teams', 'request_teams.request_id', 'requests.id')
    .innerJoin('team_members', 'team_members.team_id', 'request_teams.team_id')
    .select('team_members.user_id as user_id')
    .where('requests.status', 'in', [...REQUEST_CLIENT_ACTION_STATUSES]);
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'status', 'is_tevora', 'is_auditor', 'is_admin'])
    .where('send_daily_emails', '=', true)
    .where('status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb.and([eb('is_tevora', '=', true), eb('id', 'in', staffRequested)]),
        eb.and([eb('is_tevora', '=', false), eb.or([eb('id', 'in', assigned), eb('id', 'in', viaTeams)])]),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('request_digests')
            .select('request_digests.user_id')
            .whereRef('request_digests.user_id', '=', 'users.id')
            .where('request_digests.day', '=', today),
        ),
      ),
    )
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    status: row.status,
    isTevora: Boolean(row.is_tevora),
    isAuditor: Boolean(row.is_auditor),
    isAdmin: Boolean(row.is_admin),
  }));
}

/** A user's open requests as the digest counts them: staff what they requested, clients what is assigned to them and waits on them. */
async function openRequestsOf(db: Kysely<Database>, user: RequestRecipient): Promise<DigestRequest[]> {
  const rows = await db
    .selectFrom('requests')
    .innerJoin('companies', 'companies.id', 'requests.company_id')
    .select([
      'requests.id',
      'requests.company_id',
      'companies.name as company_name',
      'requests.reference',
      'requests.title',
      'requests.status',
      'requests.due_date',
    ])
    .$call((q) =>
      user.isTevora
        ? q.where('requests.requester_id', '=', user.id).where('requests.status', 'in', [...REQUEST_ACTIVE_STATUSES])
        : q
            .where('requests.status', 'in', [...REQUEST_CLIENT_ACTION_STATUSES])
            .where((eb) =>
              eb.or([
                eb.exists(
                  eb
                    .selectFrom('request_assignees')
                    .select('request_assignees.user_id')
                    .whereRef('request_assignees.request_id', '=', 'requests.id')
                    .where('request_assignees.user_id', '=', user.id),
                ),
                eb.exists(
                  eb
                    .selectFrom('request_teams')
                    .innerJoin('team_members', 'team_members.team_id', 'request_teams.team_id')
                    .select('team_members.user_id')
                    .whereRef('request_teams.request_id', '=', 'requests.id')
                    .where('team_members.user_id', '=', user.id),
                ),
              ]),
            ),
    )
    .orderBy('companies.name')
    .orderBy('requests.company_id')
    .orderBy('requests.reference')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    companyName: r.company_name,
    reference: r.reference,
    title: r.title,
    status: r.status,
    dueDate: r.due_date,
  }));
}

/** Due day first (none last), then reference. */
const byDue = (a: DigestRequest, b: DigestRequest) =>
  (a.dueDate ?? '9999-99-99').localeCompare(b.dueDate ?? '9999-99-99') || a.reference.localeCompare(b.reference);

/** The digest's text and HTML: per company, overdue, due soon and the other open requests, each with its link (with PUBLIC_URL). */
export function digestMail(
  user: Pick<RequestRecipient, 'firstName'>,
  companies: { name: string; requests: DigestRequest[] }[],
  today: string,
  publicUrl: string | null,
): { subject: string; text: string; html: string } {
  const soonEnd = addDays(today, REQUEST_DUE_SOON_DAYS);
  const name = user.firstName.trim();
  const text: string[] = [name ? `Hello ${name},` : 'Hello,', `Your open requests on ${formatDate(today)}:`];
  const html: string[] = [`<p>${escapeHtml(text[0])}</p>`, `<p>${escapeHtml(text[1])}</p>`];
  for (const company of companies) {
    const overdue = company.requests.filter((r) => isRequestOverdue(r.dueDate, r.status, today)).sort(byDue);
    const soon = company.requests
      .filter((r) => !isRequestOverdue(r.dueDate, r.status, today) && r.dueDate !== null && r.dueDate <= soonEnd)
      .sort(byDue);
    const listed = new Set([...overdue, ...soon]);
    const other = company.requests.filter((r) => !listed.has(r)).sort(byDue);
    text.push(company.name);
    html.push(`<h3>${escapeHtml(company.name)}</h3>`);
    let room = DIGEST_MAX_PER_COMPANY;
    for (const [heading, items] of [
      ['Overdue', overdue],
      ['Due soon', soon],
      ['Other open requests', other],
    ] as const) {
      if (items.length === 0) continue;
      const shown = items.slice(0, Math.max(0, room));
      room -= shown.length;
      const lines = shown.map((r) => {
        const url = publicUrl ? `${publicUrl}${requestLink(r.id)}` : null;
        const line = `${r.reference} ${r.title} (${REQUEST_STATUS_LABELS[r.status]}${r.dueDate ? `, due ${formatDate(r.dueDate)}` : ''})`;
        return { line, url };
      });
      const more = items.length - shown.length;
      text.push(
        [
          `${heading}:`,
          ...lines.map(({ line, url }) => `- ${line}${url ? `: ${url}` : ''}`),
          ...(more > 0 ? [`- and ${more} more`] : []),
        ].join('\n'),
      );
      html.push(
        `<p><strong>${escapeHtml(heading)}</strong></p><ul>${lines
          .map(
            ({ line, url }) =>
              `<li>${url ? `<a href="${escapeHtml(url)}">${escapeHtml(line)}</a>` : escapeHtml(line)}</li>`,
          )
          .join('')}${more > 0 ? `<li>and ${more} more</li>` : ''}</ul>`,
      );
    }
  }
  return {
    subject: `Your requests for ${formatDate(today)}`,
    text: `${text.join('\n\n')}\n`,
    html: `<!doctype html><html><body>${html.join('')}</body></html>`,
  };
}

/** Today's digest of one user, claimed and sent (false: nothing to send, or already claimed elsewhere). */
async function sendDigest(
  app: FastifyInstance,
  audience: RequestAudience,
  user: RequestRecipient,
  today: string,
): Promise<boolean> {
  const requests = await openRequestsOf(app.db, user);
  const byCompany = new Map<string, { name: string; requests: DigestRequest[] }>();
  for (const r of requests) {
    const group = byCompany.get(r.companyId) ?? { name: r.companyName, requests: [] };
    group.requests.push(r);
    byCompany.set(r.companyId, group);
  }
  const companies: { name: string; requests: DigestRequest[] }[] = [];
  for (const [companyId, group] of byCompany) {
    const visible = await audience.visibleIds(
      user,
      companyId,
      group.requests.map((r) => r.id),
    );
    const shown = group.requests.filter((r) => visible.has(r.id));
    if (shown.length > 0) companies.push({ name: group.name, requests: shown });
  }
  if (companies.length === 0) return false;
  // The claim commits before the mail goes: another instance's sweep finds it and sends nothing.
  const claim = await app.db
    .insertInto('request_digests')
    .values({ user_id: user.id, day: today, created_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  const mail = digestMail(user, companies, today, app.config.publicUrl);
  try {
    await app.mailer.send({ to: user.email, ...mail });
  } catch (error) {
    const err = error as { code?: unknown; message?: unknown };
    app.log.warn(
      { userId: user.id, code: typeof err.code === 'string' ? err.code : undefined, reason: String(err.message ?? '') },
      'request digest could not be sent',
    );
    return false;
  }
  return true;
}

/**
 * One sweep at `now`: due-soon and overdue reminders (bells and mails), then today's digests. Never
 * sends anything twice, however often it runs and on however many instances.
 */
export async function sweepRequestReminders(
  app: FastifyInstance,
  now: Date = new Date(),
  options: { signal?: AbortSignal } = {},
): Promise<{ reminders: number; digests: number }> {
  const today = utcDay(now);
  // Closing the app stops the sweep between batches: what is left, the next run (or instance) does.
  const stopped = () => options.signal?.aborted === true;
  let reminders = 0;
  for (const kind of ['due_soon', 'overdue'] as const) {
    const targets = stopped() ? [] : await reminderTargets(app.db, kind, today);
    for (let i = 0; i < targets.length && !stopped(); i += REMINDER_BATCH) {
      const pending = await remindBatch(app, kind, targets.slice(i, i + REMINDER_BATCH), today);
      reminders += pending.mails.length;
      // After the claims and bells committed.
      await deliverRequestNotices(app, app.log, pending);
    }
  }
  let digests = 0;
  const audience = new RequestAudience(app.db);
  for (const user of stopped() ? [] : await digestCandidates(app.db, today)) {
    if (stopped()) break;
    if (await sendDigest(app, audience, user, today)) digests += 1;
  }
  if (reminders > 0 || digests > 0) app.log.info({ reminders, digests }, 'request reminders sent');
  return { reminders, digests };
}
