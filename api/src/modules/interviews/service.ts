/**
 * Interviews of a project (issue 7; the contract is shared/src/core/interviews): schedule, reschedule,
 * cancel. Every participant gets one e-mail with an iCalendar invitation after the change commits
 * (notices.ts; the reply waits for them at most INVITATIONS_WAIT_MS); with Microsoft Graph configured the
 * meeting is also made in the organizer's calendar, and a Graph failure stores nothing. A new meeting is
 * made before its row is stored (and deleted again when the row cannot be); a reschedule or cancel tells
 * Graph inside the transaction, once the interview's row is locked and checked, and a reschedule is put
 * back in Graph when the transaction then fails.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BodyOf } from '@portal/shared/core/contract';
import { checkInterviewTime, type Interview } from '@portal/shared/core/interviews';
import type * as api from '@portal/shared/core/interviews/api';
import {
  cancelInterview as storeCancel,
  findInterview,
  insertInterview,
  toInterviews,
  updateInterview,
  type InterviewRecord,
} from '../../db/interviews';
import type { Database } from '../../db/schema';
import type { AuditChange } from '../../lib/audit';
import type { GraphClient, GraphMeeting } from '../../lib/graph';
import { HttpError } from '../../lib/http-error';
import type { Mailer } from '../../lib/mailer';
import { lockWorkOf, workIsOpen } from '../projects/work';
import { cancelInGraph, graphMeeting } from './meetings';
import { notify, sendInvitations, touch, type CalendarSettings } from './notices';
import { auditView, checkChangeable, checkPeople, planChange, timeRefusal, type People } from './rules';
import {
  interviewNotFound,
  interviewOrThrow,
  loadState,
  participantIds,
  unique,
  type InterviewProject,
  type InterviewState,
} from './state';

/** What the interviews' changes work with, made once when the routes start. */
export interface InterviewServices {
  db: Kysely<Database>;
  /** Null without GRAPH_* configured. */
  graph: GraphClient | null;
  mailer: Mailer;
  liveEvents: { touch(userId: string): Promise<void> };
  calendar: CalendarSettings;
}

/** Who makes a change (a staff writer): the user, the request's log, and its audit record, written in the change's transaction. */
export interface InterviewCaller {
  user: { id: string };
  log: FastifyBaseLogger;
  audit: (change: AuditChange, trx: Kysely<Database>) => Promise<void>;
}

export const presentInterview = async (db: Kysely<Database>, record: InterviewRecord): Promise<Interview> =>
  (await toInterviews(db, [record]))[0];

/** The interview as the api answers it; 404 interview_not_found when the project has none of that id. */
export async function getInterview(db: Kysely<Database>, projectId: string, interviewId: string): Promise<Interview> {
  return presentInterview(db, await interviewOrThrow(db, projectId, interviewId));
}

// ---- schedule

export async function scheduleInterview(
  services: InterviewServices,
  project: InterviewProject,
  caller: InterviewCaller,
  input: BodyOf<typeof api.createInterview>,
): Promise<Interview> {
  const { db, graph } = services;
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
      graphMeeting(state, project.title, services.calendar.publicUrl),
      caller.log,
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
        createdBy: caller.user.id,
      });
      const stored = await loadState(trx, (await findInterview(trx, project.id, draft.id))!);
      await caller.audit(
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
      return { state: stored, notified: await notify(trx, stored, caller.user.id, 'Interview scheduled') };
    }));
  } catch (error) {
    if (meeting) await graph!.discard(state!.people.get(draft.organizerId!)!.email, meeting.eventId, caller.log);
    throw error;
  }
  touch(services.liveEvents, caller.log, notified);
  const invitations = await sendInvitations(services, caller.log, state, project.title, 'scheduled', null);
  return { ...(await presentInterview(db, state.record)), invitations };
}

// ---- reschedule or change

export async function changeInterview(
  services: InterviewServices,
  project: InterviewProject,
  caller: InterviewCaller,
  interviewId: string,
  input: BodyOf<typeof api.updateInterview>,
): Promise<Interview> {
  const { db, graph } = services;
  // A first look answers refusals (404, 409, the time and people rules) without a transaction; all of
  // it is checked again below on the locked row, which is what the change is made from.
  const current = await interviewOrThrow(db, project.id, interviewId);
  checkChangeable(project, current);
  const first = planChange(current, input);
  await checkPeople(db, project, first.given);
  if (first.changed.length === 0)
    return { ...(await presentInterview(db, current)), invitations: { sent: 0, failed: 0 } };

  const log = caller.log;
  const publicUrl = services.calendar.publicUrl;
  // What the transaction did in Graph: how to undo it should the transaction fail, and an old organizer's meeting to cancel once it commits.
  const graphDone: { undo?: () => Promise<void>; replaced?: { organizerEmail: string; eventId: string } } = {};
  let outcome: { unchanged: InterviewRecord } | { state: InterviewState; removed: string[]; notified: string[] };
  try {
    outcome = await db.transaction().execute(async (trx) => {
      await lockWorkOf(trx, project.id);
      // The interview as it is now, locked until the commit: a change made since the first look is kept, not undone.
      const latest = await findInterview(trx, project.id, interviewId, { lock: true });
      if (!latest) throw interviewNotFound();
      checkChangeable(project, latest);
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
        const meeting = graphMeeting(nextState, project.title, publicUrl);
        let moved = false;
        if (latest.graphEventId && latest.organizerId === next.organizerId) {
          const eventId = latest.graphEventId;
          const updated = await graph.reschedule(organizer.email, eventId, meeting, log);
          if (updated) {
            moved = true;
            next.onlineMeetingUrl = updated.onlineMeetingUrl ?? latest.onlineMeetingUrl;
            const previous = graphMeeting(oldState, project.title, publicUrl);
            graphDone.undo = () =>
              graph.reschedule(organizer.email, eventId, previous, log).then(
                () => undefined,
                () =>
                  log.warn({ interviewId }, 'the Microsoft Graph meeting could not be put back after a failed change'),
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
      await caller.audit(
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
          ...(await notify(trx, stored, caller.user.id, rescheduled ? 'Interview rescheduled' : 'Interview updated')),
          ...(await notify(trx, withRemoved, caller.user.id, 'Interview canceled', removed)),
        ],
      };
    });
  } catch (error) {
    await graphDone.undo?.();
    throw error;
  }
  if ('unchanged' in outcome)
    return { ...(await presentInterview(db, outcome.unchanged)), invitations: { sent: 0, failed: 0 } };
  const { state, removed, notified } = outcome;
  if (graphDone.replaced) {
    // The old organizer's meeting goes once the new one is stored; failing that only leaves it in their calendar.
    await graph!
      .cancel(graphDone.replaced.organizerEmail, graphDone.replaced.eventId, 'This interview has a new organizer.', log)
      .catch(() => undefined);
  }
  touch(services.liveEvents, log, notified);
  const invitations = await sendInvitations(
    services,
    log,
    state,
    project.title,
    'updated',
    removed.length ? { ids: removed, kind: 'removed' } : null,
  );
  return { ...(await presentInterview(db, state.record)), invitations };
}

// ---- cancel

export async function cancelScheduledInterview(
  services: InterviewServices,
  project: InterviewProject,
  caller: InterviewCaller,
  interviewId: string,
  input: BodyOf<typeof api.cancelInterview>,
): Promise<Interview> {
  const { db, graph } = services;
  const current = await interviewOrThrow(db, project.id, interviewId);
  checkChangeable(project, current);
  const { state, notified } = await db.transaction().execute(async (trx) => {
    await lockWorkOf(trx, project.id);
    const latest = await findInterview(trx, project.id, interviewId, { lock: true });
    if (!latest) throw interviewNotFound();
    checkChangeable(project, latest);
    await storeCancel(trx, interviewId, latest.sequence + 1);
    const stored = await loadState(trx, (await findInterview(trx, project.id, interviewId))!);
    await caller.audit(
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
    const notified = await notify(trx, stored, caller.user.id, 'Interview canceled');
    // Graph last, once the row is locked, checked and written: its failure rolls all of it back (a Graph
    // cancel cannot be undone, so only the commit comes after it).
    const organizer = latest.organizerId ? stored.people.get(latest.organizerId) : undefined;
    if (graph && latest.graphEventId && organizer)
      await cancelInGraph(graph, organizer.email, latest.graphEventId, input.reason ?? null, caller.log, interviewId);
    return { state: stored, notified };
  });
  touch(services.liveEvents, caller.log, notified);
  const invitations = await sendInvitations(
    services,
    caller.log,
    state,
    project.title,
    'canceled',
    { ids: participantIds(state.record), kind: 'canceled' },
    input.reason ?? null,
  );
  return { ...(await presentInterview(db, state.record)), invitations };
}
