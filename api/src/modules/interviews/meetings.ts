/** An interview's meeting in Microsoft Graph (lib/graph.ts the client): what it is made of, and its cancel. */
import type { FastifyBaseLogger } from 'fastify';
import { instantToZoned } from '@portal/shared/core/interviews';
import type { GraphClient, GraphMeetingInput } from '../../lib/graph';
import { HttpError } from '../../lib/http-error';
import { fullName, projectLink, unique, type InterviewState } from './state';

/** The Graph meeting of an interview: the portal link only with PUBLIC_URL; suspended users are not invited. */
export function graphMeeting(state: InterviewState, projectTitle: string, publicUrl: string): GraphMeetingInput {
  const { record, people } = state;
  const local = (instant: number) => {
    const z = instantToZoned(instant, record.timeZone);
    return `${z.date}T${z.time}:00`;
  };
  return {
    subject: record.title,
    body: [record.description, `Project: ${projectTitle}`, `${publicUrl}${projectLink(record.projectId)}`]
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

/**
 * Cancels the Graph meeting. An organizer Graph no longer knows (or a meeting deleted in Outlook, see
 * GraphClient.cancel) leaves nothing to cancel there: logged, and the interview is canceled here all the same.
 */
export async function cancelInGraph(
  graph: GraphClient,
  organizerEmail: string,
  eventId: string,
  reason: string | null,
  log: FastifyBaseLogger,
  interviewId: string,
): Promise<void> {
  try {
    await graph.cancel(organizerEmail, eventId, reason, log);
  } catch (error) {
    if (!(error instanceof HttpError && error.code === 'graph_user_not_found')) throw error;
    log.warn(
      { interviewId, graph: { step: 'cancel', code: error.code } },
      'Microsoft Graph no longer knows the organizer: the interview is canceled in the portal only',
    );
  }
}
