/**
 * The notices of an interview's change: one e-mail per participant with an iCalendar invitation after
 * the change commits (the reply waits for them at most INVITATIONS_WAIT_MS), the in-app notifications
 * in the change's transaction and the bells after it, and the invitation as an .ics file.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createNotification } from '../../db/notifications';
import type { Database } from '../../db/schema';
import { buildInvitation, interviewUid, type CalendarMethod } from '../../lib/icalendar';
import type { Mailer } from '../../lib/mailer';
import { mailBody } from '../../lib/password-reset';
import {
  fullName,
  icsName,
  interviewOrThrow,
  loadState,
  participantIds,
  projectLink,
  unique,
  whenText,
  type InterviewState,
} from './state';

/** Invitations go out a few at a time: a slow mail server does not hold one connection per participant. */
const MAIL_CONCURRENCY = 5;
/**
 * How long a reply waits for its invitations in total; mails still going out then carry on in the
 * background and are counted as `pending`. Shorter than the mailer's connection and greeting timeouts
 * (10 s), so a mail server that never answers shows as pending rather than racing them.
 */
export const INVITATIONS_WAIT_MS = 8_000;

export type Invitations = { sent: number; failed: number; pending?: number };

/** What invitations are made with: the portal's address (PUBLIC_URL) and the calendar's PRODID. */
export interface CalendarSettings {
  publicUrl: string;
  productId: string;
}

export function calendarSettings(config: { publicUrl: string; brandName: string }): CalendarSettings {
  return {
    publicUrl: config.publicUrl,
    productId: `-//${config.brandName.replace(/[/\r\n]/g, ' ')}//Portal Interviews//EN`,
  };
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

export function calendarText(
  calendar: CalendarSettings,
  state: InterviewState,
  method: CalendarMethod,
  attendeeIds?: string[],
): string {
  const { record, people } = state;
  const organizer = record.organizerId ? people.get(record.organizerId) : undefined;
  const attendees = (attendeeIds ?? unique([...record.interviewerIds, ...record.attendeeIds])).flatMap((id) => {
    const p = people.get(id);
    return p ? [{ name: fullName(p), email: p.email }] : [];
  });
  return buildInvitation({
    method,
    uid: interviewUid(record.id),
    sequence: record.sequence,
    stamp: Date.now(),
    start: record.startsAt,
    end: record.endsAt,
    summary: record.title,
    description:
      [record.description, record.onlineMeetingUrl ? `Join the online meeting: ${record.onlineMeetingUrl}` : null]
        .filter(Boolean)
        .join('\n\n') || null,
    location: record.location ?? (record.onlineMeetingUrl ? 'Online meeting' : null),
    url: `${calendar.publicUrl}${projectLink(record.projectId)}`,
    organizer: organizer ? { name: fullName(organizer), email: organizer.email } : null,
    attendees,
    productId: calendar.productId,
  });
}

/** The interview's current invitation as an .ics file: REQUEST, or CANCEL once it is canceled. */
export async function interviewCalendar(
  db: Kysely<Database>,
  calendar: CalendarSettings,
  projectId: string,
  interviewId: string,
): Promise<{ text: string; filename: string }> {
  const record = await interviewOrThrow(db, projectId, interviewId);
  const text = calendarText(calendar, await loadState(db, record), record.status === 'canceled' ? 'CANCEL' : 'REQUEST');
  return { text, filename: icsName(record) };
}

type MailKind = 'scheduled' | 'updated' | 'canceled' | 'removed';

/**
 * One e-mail per active participant (after the change committed; suspended users get none): REQUEST
 * to the participants, CANCEL to `cancelTo`. A failure is logged and counted; it never undoes the
 * change. Waits at most INVITATIONS_WAIT_MS: mails still going out then are counted as `pending`
 * and finish in the background (failures logged there).
 */
export async function sendInvitations(
  out: { mailer: Mailer; calendar: CalendarSettings },
  log: FastifyBaseLogger,
  state: InterviewState,
  projectTitle: string,
  kind: Exclude<MailKind, 'removed'>,
  cancelTo: { ids: string[]; kind: 'canceled' | 'removed' } | null,
  reason: string | null = null,
): Promise<Invitations> {
  const { record, people } = state;
  const link = `${out.calendar.publicUrl}${projectLink(record.projectId)}`;
  const when = whenText(record.startsAt, record.endsAt, record.timeZone);
  const organizer = record.organizerId ? people.get(record.organizerId) : undefined;
  const requestText = kind === 'canceled' ? null : calendarText(out.calendar, state, 'REQUEST');
  const jobs: { userId: string; kind: MailKind }[] = [
    ...(kind === 'canceled' ? [] : participantIds(record).map((userId) => ({ userId, kind }))),
    ...(cancelTo ? cancelTo.ids.map((userId) => ({ userId, kind: cancelTo.kind })) : []),
  ].filter((job) => people.get(job.userId)?.status === 'active');
  const cancelFor = (userId: string) =>
    calendarText(out.calendar, state, 'CANCEL', cancelTo?.kind === 'removed' ? [userId] : undefined);
  const subjects: Record<MailKind, string> = {
    scheduled: `Invitation: ${record.title}`,
    updated: `Updated invitation: ${record.title}`,
    canceled: `Canceled: ${record.title}`,
    removed: `Canceled: ${record.title}`,
  };
  const leads: Record<MailKind, string> = {
    scheduled: `You are invited to an interview of the project ${projectTitle}.`,
    updated: `An interview of the project ${projectTitle} has changed. The invitation below replaces the earlier one.`,
    canceled: `An interview of the project ${projectTitle} is canceled.`,
    removed: `You no longer take part in an interview of the project ${projectTitle}.`,
  };
  let sent = 0;
  let failed = 0;
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const person = people.get(job.userId);
      if (!person) continue;
      const cancel = job.kind === 'canceled' || job.kind === 'removed';
      const body = mailBody(
        [
          `Hello ${person.firstName},`,
          leads[job.kind],
          record.title,
          `When: ${when}`,
          record.location ? `Where: ${record.location}` : '',
          organizer ? `Organizer: ${fullName(organizer)} <${organizer.email}>` : '',
          record.onlineMeetingUrl && !cancel ? `Online meeting: ${record.onlineMeetingUrl}` : '',
          ...(record.description && !cancel ? [record.description] : []),
          ...(reason && job.kind === 'canceled' ? [`Reason: ${reason}`] : []),
          link ? `See the project's interviews: ${link}` : '',
        ].filter(Boolean),
      );
      try {
        await out.mailer.send({
          to: person.email,
          subject: oneLine(subjects[job.kind]),
          text: body.text,
          html: body.html,
          icalEvent: cancel
            ? { method: 'CANCEL', filename: icsName(record), content: cancelFor(person.id) }
            : { method: 'REQUEST', filename: icsName(record), content: requestText! },
        });
        sent += 1;
      } catch (error) {
        failed += 1;
        const err = error as { code?: unknown; message?: unknown };
        log.warn(
          {
            interviewId: record.id,
            userId: person.id,
            mailKind: job.kind,
            code: typeof err.code === 'string' ? err.code : undefined,
            reason: String(err.message ?? ''),
          },
          'interview invitation could not be sent',
        );
      }
    }
  };
  const all = Promise.all(Array.from({ length: Math.min(MAIL_CONCURRENCY, jobs.length) }, worker));
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    all.then(() => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), INVITATIONS_WAIT_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  const pending = jobs.length - sent - failed;
  if (!finished && pending > 0) {
    log.warn({ interviewId: record.id, pending }, 'interview invitations still being sent after the reply');
    void all.then(() =>
      log.info({ interviewId: record.id, sent, failed }, 'interview invitations finished in the background'),
    );
  }
  return pending > 0 ? { sent, failed, pending } : { sent, failed };
}

/** In-app notifications for the participants other than the caller, in the change's transaction. */
export async function notify(
  trx: Kysely<Database>,
  state: InterviewState,
  callerId: string,
  title: string,
  userIds = participantIds(state.record),
): Promise<string[]> {
  const { record } = state;
  const targets = userIds.filter((id) => id !== callerId && state.people.get(id)?.status === 'active');
  for (const userId of targets) {
    await createNotification(trx, {
      userId,
      companyId: record.companyId,
      title: `${title}: ${record.title}`,
      body: whenText(record.startsAt, record.endsAt, record.timeZone),
      link: projectLink(record.projectId),
    });
  }
  return targets;
}

/** The bells of the notified, after the commit; a failure is only logged. */
export function touch(
  liveEvents: { touch(userId: string): Promise<void> },
  log: FastifyBaseLogger,
  userIds: string[],
): void {
  for (const userId of userIds)
    liveEvents.touch(userId).catch((error: unknown) => log.warn({ err: error }, 'bell update failed'));
}
