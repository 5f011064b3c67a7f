/**
 * Interviews of a project (issue 7; the contract is shared/src/core/interviews): schedule, list,
 * reschedule, cancel, and the invitation as an .ics file. Every participant gets one e-mail with an
 * iCalendar invitation after the change commits (the reply waits for them at most INVITATIONS_WAIT_MS);
 * with Microsoft Graph configured the meeting is also made in the organizer's calendar, and a Graph
 * failure stores nothing. A new meeting is made before its row is stored (and deleted again when the
 * row cannot be); a reschedule or cancel tells Graph inside the transaction, once the interview's row is
 * locked and checked, and a reschedule is put back in Graph when the transaction then fails.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { BodyOf } from '@portal/shared/core/contract';
import {
  checkInterviewTime,
  instantToZoned,
  type Interview,
  type InterviewTimeProblem,
} from '@portal/shared/core/interviews';
import * as api from '@portal/shared/core/interviews/api';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  attendeeIds as allowedAttendees,
  cancelInterview,
  contactsByIds,
  findInterview,
  insertInterview,
  interviewerIds as allowedInterviewers,
  interviewPeople,
  listInterviews,
  organizerIds as allowedOrganizers,
  toInterviews,
  updateInterview,
  type InterviewContact,
  type InterviewRecord,
} from '../../../../db/interviews';
import { createNotification } from '../../../../db/notifications';
import type { Database } from '../../../../db/schema';
import type { UserRecord } from '../../../../db/users';
import { audit } from '../../../../lib/audit';
import { createGraphClient, type GraphMeeting, type GraphMeetingInput } from '../../../../lib/graph';
import { HttpError } from '../../../../lib/http-error';
import { buildInvitation, interviewUid, type CalendarMethod } from '../../../../lib/icalendar';
import { pageWindow } from '../../../../lib/paging';
import { mailBody } from '../../../../lib/password-reset';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyProject, type ProjectAccess } from '../../../../plugins/app/policies';
import { sendAttachment } from '../files/download';
import { lockWorkOf, workIsOpen } from '../../../../modules/projects/work';

/** Invitations go out a few at a time: a slow mail server does not hold one connection per participant. */
const MAIL_CONCURRENCY = 5;
/**
 * How long a reply waits for its invitations in total; mails still going out then carry on in the
 * background and are counted as `pending`. Shorter than the mailer's connection and greeting timeouts
 * (10 s), so a mail server that never answers shows as pending rather than racing them.
 */
export const INVITATIONS_WAIT_MS = 8_000;

type Invitations = { sent: number; failed: number; pending?: number };

const interviewNotFound = () => new HttpError(404, 'interview_not_found');

/** 400 with the rule's code, naming the field the form shows it under. */
function timeRefusal(problem: InterviewTimeProblem): HttpError {
  const message = problem.code === 'invalid_meeting_argument' ? problem.message : ERROR_MESSAGES[problem.code];
  return new HttpError(400, problem.code, message, [{ field: problem.field, message }]);
}

const organizerRefusal = () =>
  new HttpError(400, 'invalid_meeting_organizer', undefined, [
    { field: 'organizerId', message: 'organizerId must be an active Lead Consultant or Consultant of this project' },
  ]);

/** "staff writer": project:write (the policy) and staff. */
async function staffWriter(request: FastifyRequest): Promise<UserRecord> {
  const { user } = await requireAuth(request);
  if (!user.isTevora) throw new HttpError(403, 'user_can_not_update_project');
  return user;
}

/** The staff writer check of the changes, before their body is read: a client learns nothing of its rules. */
const staffOnly = { preValidation: async (request: FastifyRequest) => void (await staffWriter(request)) };

const unique = (ids: readonly string[]) => [...new Set(ids)];

interface People {
  organizerId: string | null;
  interviewerIds: string[];
  /** Without the interviewers: a person takes part once, as an interviewer first. */
  attendeeIds: string[];
}

/** The people rules, in the contract's order: organizer, interviewers, attendees; only for the lists given. */
async function checkPeople(
  db: Kysely<Database>,
  project: { id: string; companyId: string },
  given: { organizerId?: string; interviewerIds?: string[]; attendeeIds?: string[] },
): Promise<void> {
  if (
    given.organizerId !== undefined &&
    !(await allowedOrganizers(db, project.id, [given.organizerId])).has(given.organizerId)
  )
    throw organizerRefusal();
  if (given.interviewerIds?.length) {
    const allowed = await allowedInterviewers(db, project.id, given.interviewerIds);
    const refused = given.interviewerIds.filter((id) => !allowed.has(id));
    if (refused.length) {
      throw new HttpError(400, 'invalid_meeting_argument', 'Only staff can be interviewers', [
        { field: 'interviewerIds', message: `Only staff can be interviewers: ${refused.join(', ')}` },
      ]);
    }
  }
  if (given.attendeeIds?.length) {
    const allowed = await allowedAttendees(db, project, given.attendeeIds);
    const refused = given.attendeeIds.filter((id) => !allowed.has(id));
    if (refused.length) {
      throw new HttpError(
        400,
        'invalid_meeting_argument',
        'Attendees must be active members of the project or its company',
        [
          {
            field: 'attendeeIds',
            message: `attendeeIds holds users who are not active members of this project or its company: ${refused.join(', ')}`,
          },
        ],
      );
    }
  }
}

const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** "Tuesday, December 1, 2026, 10:00 AM – 11:00 AM (America/New_York)". */
function whenText(startsAt: number, endsAt: number, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(startsAt);
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });
  return `${day}, ${time.format(startsAt)} – ${time.format(endsAt)} (${timeZone})`;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** What an invitation, its mail and its Graph meeting are made of: the interview as it now stands and its people. */
interface InterviewState {
  record: InterviewRecord;
  people: Map<string, InterviewContact>;
}

const participantIds = (r: Pick<InterviewRecord, 'organizerId' | 'interviewerIds' | 'attendeeIds'>) =>
  unique([...(r.organizerId ? [r.organizerId] : []), ...r.interviewerIds, ...r.attendeeIds]);

async function loadState(db: Kysely<Database>, record: InterviewRecord): Promise<InterviewState> {
  return { record, people: await contactsByIds(db, participantIds(record)) };
}

/** Interviews of a project (docs/projects.md, "Interviews"). */
export default async function projectInterviewsRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const graph = config.graph ? createGraphClient(config.graph) : null;
  const productId = `-//${config.brandName.replace(/[/\r\n]/g, ' ')}//Portal Interviews//EN`;

  const projectLink = (projectId: string) => `/v2/projects/${encodeURIComponent(projectId)}?view=interviews`;

  function calendarText(state: InterviewState, method: CalendarMethod, attendeeIds?: string[]): string {
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
      url: `${config.publicUrl}${projectLink(record.projectId)}`,
      organizer: organizer ? { name: fullName(organizer), email: organizer.email } : null,
      attendees,
      productId,
    });
  }

  const icsName = (record: InterviewRecord) => `interview-${record.id}.ics`;

  type MailKind = 'scheduled' | 'updated' | 'canceled' | 'removed';

  /**
   * One e-mail per active participant (after the change committed; suspended users get none): REQUEST
   * to the participants, CANCEL to `cancelTo`. A failure is logged and counted; it never undoes the
   * change. Waits at most INVITATIONS_WAIT_MS: mails still going out then are counted as `pending`
   * and finish in the background (failures logged there).
   */
  async function sendInvitations(
    request: FastifyRequest,
    state: InterviewState,
    projectTitle: string,
    kind: Exclude<MailKind, 'removed'>,
    cancelTo: { ids: string[]; kind: 'canceled' | 'removed' } | null,
    reason: string | null = null,
  ): Promise<Invitations> {
    const { record, people } = state;
    const link = `${config.publicUrl}${projectLink(record.projectId)}`;
    const when = whenText(record.startsAt, record.endsAt, record.timeZone);
    const organizer = record.organizerId ? people.get(record.organizerId) : undefined;
    const requestText = kind === 'canceled' ? null : calendarText(state, 'REQUEST');
    const jobs: { userId: string; kind: MailKind }[] = [
      ...(kind === 'canceled' ? [] : participantIds(record).map((userId) => ({ userId, kind }))),
      ...(cancelTo ? cancelTo.ids.map((userId) => ({ userId, kind: cancelTo.kind })) : []),
    ].filter((job) => people.get(job.userId)?.status === 'active');
    const cancelFor = (userId: string) =>
      calendarText(state, 'CANCEL', cancelTo?.kind === 'removed' ? [userId] : undefined);
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
          await app.mailer.send({
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
          request.log.warn(
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
      request.log.warn({ interviewId: record.id, pending }, 'interview invitations still being sent after the reply');
      void all.then(() =>
        request.log.info({ interviewId: record.id, sent, failed }, 'interview invitations finished in the background'),
      );
    }
    return pending > 0 ? { sent, failed, pending } : { sent, failed };
  }

  /** In-app notifications for the participants other than the caller, in the change's transaction. */
  async function notify(
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

  function touch(request: FastifyRequest, userIds: string[]): void {
    for (const userId of userIds)
      app.liveEvents.touch(userId).catch((error: unknown) => request.log.warn({ err: error }, 'bell update failed'));
  }

  /** The Graph meeting of an interview: the portal link only with PUBLIC_URL; suspended users are not invited. */
  function graphMeeting(state: InterviewState, projectTitle: string): GraphMeetingInput {
    const { record, people } = state;
    const local = (instant: number) => {
      const z = instantToZoned(instant, record.timeZone);
      return `${z.date}T${z.time}:00`;
    };
    return {
      subject: record.title,
      body: [record.description, `Project: ${projectTitle}`, `${config.publicUrl}${projectLink(record.projectId)}`]
        .filter(Boolean)
        .join('\n\n'),
      location: record.location,
      start: local(record.startsAt),
      end: local(record.endsAt),
      timeZone: record.timeZone,
      attendees: unique([...record.interviewerIds, ...record.attendeeIds])
        .filter((id) => id !== record.organizerId)
        .flatMap((id) => {
          const p = people.get(id);
          return p?.status === 'active' ? [{ name: fullName(p), email: p.email }] : [];
        }),
      reference: record.id,
    };
  }

  async function interviewOrThrow(
    trx: Kysely<Database>,
    projectId: string,
    interviewId: string,
  ): Promise<InterviewRecord> {
    const found = await findInterview(trx, projectId, interviewId);
    if (!found) throw interviewNotFound();
    return found;
  }

  /** The rules every change of an existing interview follows, in this order. */
  function checkChangeable(access: ProjectAccess, record: InterviewRecord): void {
    if (!workIsOpen(access.project)) throw new HttpError(409, 'project_is_canceled');
    if (record.status === 'canceled') throw new HttpError(409, 'interview_is_canceled');
    if (record.startsAt <= Date.now()) throw new HttpError(409, 'interview_is_over');
  }

  const present = async (record: InterviewRecord): Promise<Interview> => (await toInterviews(db, [record]))[0];

  // ---- reads

  route(app, api.listInterviews, async (request) => {
    const { project } = policyProject(request);
    const { query } = request;
    const window = pageWindow({ ...query, ignorePagination: false });
    const { results, total } = await listInterviews(db, project.id, {
      when: query.when,
      limit: query.pageSize,
      offset: window.offset,
      now: Date.now(),
    });
    return window.reply(results, total);
  });

  route(app, api.listInterviewPeople, async (request) => {
    const { project } = policyProject(request);
    const { user } = await requireAuth(request);
    return interviewPeople(db, project, { staffDirectory: user.isTevora });
  });

  route(app, api.getInterview, async (request) => {
    const { project } = policyProject(request);
    return present(await interviewOrThrow(db, project.id, request.params.interviewId));
  });

  route(app, api.downloadInterviewCalendar, async (request, reply) => {
    const { project } = policyProject(request);
    const { interviewId } = request.params;
    const record = await interviewOrThrow(db, project.id, interviewId);
    const text = calendarText(await loadState(db, record), record.status === 'canceled' ? 'CANCEL' : 'REQUEST');
    return sendAttachment(reply, text, 'text/calendar; charset=utf-8', icsName(record));
  });

  // ---- schedule

  route(
    app,
    api.createInterview,
    async (request, reply) => {
      const access = policyProject(request);
      const { project } = access;
      const caller = await staffWriter(request);
      const input = request.body;
      if (!workIsOpen(project)) throw new HttpError(409, 'project_is_canceled');
      const time = checkInterviewTime({ date: input.date, time: input.time, timeZone: input.timeZone });
      if (time.problem) throw timeRefusal(time.problem);
      const interviewerIds = unique(input.interviewerIds);
      const people: People = {
        organizerId: input.organizerId,
        interviewerIds,
        attendeeIds: unique(input.attendeeIds).filter((id) => !interviewerIds.includes(id)),
      };
      const given = { organizerId: input.organizerId, interviewerIds, attendeeIds: people.attendeeIds };
      const now = new Date().toISOString();
      const draft: InterviewRecord = {
        id: randomUUID(),
        projectId: project.id,
        companyId: project.companyId,
        title: input.title,
        description: input.description ?? null,
        location: input.location ?? null,
        startsAt: time.instant,
        endsAt: time.instant + input.durationMinutes * 60_000,
        timeZone: time.timeZone,
        organizerId: people.organizerId,
        status: 'scheduled',
        sequence: 0,
        onlineMeetingUrl: null,
        graphEventId: null,
        graphSubscriptionId: null,
        createdAt: now,
        updatedAt: now,
        canceledAt: null,
        interviewerIds: [...people.interviewerIds].sort(),
        attendeeIds: [...people.attendeeIds].sort(),
      };
      let meeting: GraphMeeting | null = null;
      let state: InterviewState;
      if (graph) {
        // Graph first, so its failure stores nothing; the people are checked before it is told anything.
        await checkPeople(db, project, given);
        state = await loadState(db, draft);
        meeting = await graph.schedule(
          state.people.get(draft.organizerId!)!.email,
          graphMeeting(state, project.title),
          request.log,
        );
        draft.graphEventId = meeting.eventId;
        draft.graphSubscriptionId = meeting.subscriptionId;
        draft.onlineMeetingUrl = meeting.onlineMeetingUrl;
      }
      let notified: string[];
      try {
        ({ state, notified } = await db.transaction().execute(async (trx) => {
          await lockWorkOf(trx, project.id);
          await checkPeople(trx, project, given);
          await insertInterview(trx, {
            ...draft,
            organizerId: draft.organizerId!,
            createdBy: caller.id,
          });
          const stored = await loadState(trx, (await findInterview(trx, project.id, draft.id))!);
          await audit(
            request,
            {
              action: 'interview.create',
              targetType: 'interview',
              targetId: draft.id,
              targetLabel: draft.title,
              companyId: project.companyId,
              after: auditView(stored.record),
            },
            trx,
          );
          return { state: stored, notified: await notify(trx, stored, caller.id, 'Interview scheduled') };
        }));
      } catch (error) {
        if (meeting) await graph!.discard(state!.people.get(draft.organizerId!)!.email, meeting.eventId, request.log);
        throw error;
      }
      touch(request, notified);
      const invitations = await sendInvitations(request, state, project.title, 'scheduled', null);
      return reply.code(201).send({ ...(await present(state.record)), invitations });
    },
    staffOnly,
  );

  // ---- reschedule or change

  route(
    app,
    api.updateInterview,
    async (request) => {
      const access = policyProject(request);
      const { project } = access;
      const caller = await staffWriter(request);
      const { interviewId } = request.params;
      const input = request.body;
      // A first look answers refusals (404, 409, the time and people rules) without a transaction; all of
      // it is checked again below on the locked row, which is what the change is made from.
      const current = await interviewOrThrow(db, project.id, interviewId);
      checkChangeable(access, current);
      const first = planChange(current, input);
      await checkPeople(db, project, first.given);
      if (first.changed.length === 0) return { ...(await present(current)), invitations: { sent: 0, failed: 0 } };

      const log = request.log;
      // What the transaction did in Graph: how to undo it should the transaction fail, and an old organizer's meeting to cancel once it commits.
      const graphDone: { undo?: () => Promise<void>; replaced?: { organizerEmail: string; eventId: string } } = {};
      let outcome: { unchanged: InterviewRecord } | { state: InterviewState; removed: string[]; notified: string[] };
      try {
        outcome = await db.transaction().execute(async (trx) => {
          await lockWorkOf(trx, project.id);
          // The interview as it is now, locked until the commit: a change made since the first look is kept, not undone.
          const latest = await findInterview(trx, project.id, interviewId, { lock: true });
          if (!latest) throw interviewNotFound();
          checkChangeable(access, latest);
          const plan = planChange(latest, input);
          if (plan.changed.length === 0) return { unchanged: latest };
          await checkPeople(trx, project, plan.given);
          const { next } = plan;
          next.sequence = latest.sequence + 1;
          const oldState = await loadState(trx, latest);
          const nextState = await loadState(trx, next);
          const organizer = next.organizerId ? nextState.people.get(next.organizerId) : undefined;
          if (graph && organizer) {
            // Graph once the row is locked and checked; its failure rolls the change back.
            const meeting = graphMeeting(nextState, project.title);
            let moved = false;
            if (latest.graphEventId && latest.organizerId === next.organizerId) {
              const eventId = latest.graphEventId;
              const updated = await graph.reschedule(organizer.email, eventId, meeting, log);
              if (updated) {
                moved = true;
                next.onlineMeetingUrl = updated.onlineMeetingUrl ?? latest.onlineMeetingUrl;
                const previous = graphMeeting(oldState, project.title);
                graphDone.undo = () =>
                  graph.reschedule(organizer.email, eventId, previous, log).then(
                    () => undefined,
                    () =>
                      log.warn(
                        { interviewId },
                        'the Microsoft Graph meeting could not be put back after a failed change',
                      ),
                  );
              }
            }
            if (!moved) {
              // A new organizer, a meeting made before Graph was configured, or one deleted in Outlook: a new meeting in the organizer's calendar.
              const created = await graph.schedule(organizer.email, meeting, log);
              graphDone.undo = () => graph.discard(organizer.email, created.eventId, log);
              next.graphEventId = created.eventId;
              next.graphSubscriptionId = created.subscriptionId;
              next.onlineMeetingUrl = created.onlineMeetingUrl;
              const oldOrganizer = latest.organizerId ? oldState.people.get(latest.organizerId) : undefined;
              if (latest.graphEventId && latest.organizerId !== next.organizerId && oldOrganizer) {
                graphDone.replaced = { organizerEmail: oldOrganizer.email, eventId: latest.graphEventId };
              }
            }
          }
          await updateInterview(trx, interviewId, next);
          const stored = await loadState(trx, (await findInterview(trx, project.id, interviewId))!);
          await audit(
            request,
            {
              action: 'interview.update',
              targetType: 'interview',
              targetId: interviewId,
              targetLabel: next.title,
              companyId: project.companyId,
              before: plan.before,
              after: plan.after,
            },
            trx,
          );
          const removed = participantIds(latest).filter((id) => !participantIds(stored.record).includes(id));
          const withRemoved = { ...stored, people: new Map([...oldState.people, ...stored.people]) };
          const rescheduled = plan.changed.some((k) => k === 'startsAt' || k === 'endsAt' || k === 'timeZone');
          return {
            state: withRemoved,
            removed,
            notified: [
              ...(await notify(trx, stored, caller.id, rescheduled ? 'Interview rescheduled' : 'Interview updated')),
              ...(await notify(trx, withRemoved, caller.id, 'Interview canceled', removed)),
            ],
          };
        });
      } catch (error) {
        await graphDone.undo?.();
        throw error;
      }
      if ('unchanged' in outcome) return { ...(await present(outcome.unchanged)), invitations: { sent: 0, failed: 0 } };
      const { state, removed, notified } = outcome;
      if (graphDone.replaced) {
        // The old organizer's meeting goes once the new one is stored; failing that only leaves it in their calendar.
        await graph!
          .cancel(
            graphDone.replaced.organizerEmail,
            graphDone.replaced.eventId,
            'This interview has a new organizer.',
            log,
          )
          .catch(() => undefined);
      }
      touch(request, notified);
      const invitations = await sendInvitations(
        request,
        state,
        project.title,
        'updated',
        removed.length ? { ids: removed, kind: 'removed' } : null,
      );
      return { ...(await present(state.record)), invitations };
    },
    staffOnly,
  );

  // ---- cancel

  /**
   * Cancels the Graph meeting. An organizer Graph no longer knows (or a meeting deleted in Outlook, see
   * GraphClient.cancel) leaves nothing to cancel there: logged, and the interview is canceled here all the same.
   */
  async function cancelInGraph(
    organizerEmail: string,
    eventId: string,
    reason: string | null,
    log: FastifyBaseLogger,
    interviewId: string,
  ): Promise<void> {
    try {
      await graph!.cancel(organizerEmail, eventId, reason, log);
    } catch (error) {
      if (!(error instanceof HttpError && error.code === 'graph_user_not_found')) throw error;
      log.warn(
        { interviewId, graph: { step: 'cancel', code: error.code } },
        'Microsoft Graph no longer knows the organizer: the interview is canceled in the portal only',
      );
    }
  }

  route(
    app,
    api.cancelInterview,
    async (request) => {
      const access = policyProject(request);
      const { project } = access;
      const caller = await staffWriter(request);
      const { interviewId } = request.params;
      const input = request.body;
      const current = await interviewOrThrow(db, project.id, interviewId);
      checkChangeable(access, current);
      const { state, notified } = await db.transaction().execute(async (trx) => {
        await lockWorkOf(trx, project.id);
        const latest = await findInterview(trx, project.id, interviewId, { lock: true });
        if (!latest) throw interviewNotFound();
        checkChangeable(access, latest);
        await cancelInterview(trx, interviewId, latest.sequence + 1);
        const stored = await loadState(trx, (await findInterview(trx, project.id, interviewId))!);
        await audit(
          request,
          {
            action: 'interview.cancel',
            targetType: 'interview',
            targetId: interviewId,
            targetLabel: latest.title,
            companyId: project.companyId,
            before: { status: 'scheduled' },
            after: { status: 'canceled', reason: input.reason ?? null },
          },
          trx,
        );
        const notified = await notify(trx, stored, caller.id, 'Interview canceled');
        // Graph last, once the row is locked, checked and written: its failure rolls all of it back (a Graph
        // cancel cannot be undone, so only the commit comes after it).
        const organizer = latest.organizerId ? stored.people.get(latest.organizerId) : undefined;
        if (graph && latest.graphEventId && organizer)
          await cancelInGraph(organizer.email, latest.graphEventId, input.reason ?? null, request.log, interviewId);
        return { state: stored, notified };
      });
      touch(request, notified);
      const invitations = await sendInvitations(
        request,
        state,
        project.title,
        'canceled',
        { ids: participantIds(state.record), kind: 'canceled' },
        input.reason ?? null,
      );
      return { ...(await present(state.record)), invitations };
    },
    staffOnly,
  );
}

type InterviewUpdateInput = BodyOf<typeof api.updateInterview>;

/** A change of `current`: the interview after it, the audited fields that differ, and the people newly named (the only ones checked). */
function planChange(current: InterviewRecord, input: InterviewUpdateInput) {
  let { startsAt, endsAt, timeZone } = current;
  if (
    input.date !== undefined ||
    input.time !== undefined ||
    input.timeZone !== undefined ||
    input.durationMinutes !== undefined
  ) {
    const local = instantToZoned(current.startsAt, current.timeZone);
    const time = checkInterviewTime({
      date: input.date ?? local.date,
      time: input.time ?? local.time,
      timeZone: input.timeZone !== undefined ? input.timeZone : current.timeZone,
    });
    if (time.problem) throw timeRefusal(time.problem);
    const minutes = input.durationMinutes ?? Math.round((current.endsAt - current.startsAt) / 60_000);
    startsAt = time.instant;
    endsAt = time.instant + minutes * 60_000;
    timeZone = time.timeZone;
  }
  const interviewerIds = input.interviewerIds !== undefined ? unique(input.interviewerIds) : current.interviewerIds;
  const attendeeIds = (input.attendeeIds !== undefined ? unique(input.attendeeIds) : current.attendeeIds).filter(
    (id) => !interviewerIds.includes(id),
  );
  // Only what is sent is checked: people kept as they were stay, even if one has since left.
  const given = {
    organizerId:
      input.organizerId !== undefined && input.organizerId !== current.organizerId ? input.organizerId : undefined,
    interviewerIds:
      input.interviewerIds !== undefined
        ? interviewerIds.filter((id) => !current.interviewerIds.includes(id))
        : undefined,
    attendeeIds:
      input.attendeeIds !== undefined ? attendeeIds.filter((id) => !current.attendeeIds.includes(id)) : undefined,
  };
  const next: InterviewRecord = {
    ...current,
    title: input.title ?? current.title,
    description: input.description !== undefined ? input.description : current.description,
    location: input.location !== undefined ? input.location : current.location,
    startsAt,
    endsAt,
    timeZone,
    organizerId: input.organizerId ?? current.organizerId,
    interviewerIds: [...interviewerIds].sort(),
    attendeeIds: [...attendeeIds].sort(),
  };
  const was = auditView(current);
  const now = auditView(next);
  const changed = (Object.keys(now) as (keyof typeof now)[]).filter(
    (key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]),
  );
  return {
    next,
    changed,
    before: Object.fromEntries(changed.map((key) => [key, was[key]])),
    after: Object.fromEntries(changed.map((key) => [key, now[key]])),
    given,
  };
}

/** The fields of an interview the audit records. */
function auditView(r: InterviewRecord) {
  return {
    title: r.title,
    description: r.description,
    location: r.location,
    startsAt: new Date(r.startsAt).toISOString(),
    endsAt: new Date(r.endsAt).toISOString(),
    timeZone: r.timeZone,
    organizerId: r.organizerId,
    interviewerIds: r.interviewerIds,
    attendeeIds: r.attendeeIds,
  };
}
