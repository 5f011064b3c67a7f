/**
 * Microsoft Graph meetings for interviews (issue 7), optional: with GRAPH_* configured the interview is
 * also an online meeting in its organizer's calendar. The app signs in with the client-credentials grant
 * (the token is kept until shortly before it expires), finds the organizer by e-mail, and creates,
 * updates or cancels the event; with GRAPH_NOTIFICATION_URL a change subscription to the organizer's
 * events follows each new event (nothing receives its notifications yet). Every call has a timeout. Failures become the contract's errors (shared/src/core/interviews);
 * what went wrong is logged with Graph's status and error code, never with the secret or a token.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { GraphConfig } from '../config';
import { HttpError } from './http-error';

export const GRAPH_TIMEOUT_MS = 10_000;
/** Graph refuses an Outlook event subscription that lasts longer than 4230 minutes (a little under three days). */
export const SUBSCRIPTION_MAX_MINUTES = 4230;
/** Asked for a little less than the maximum, so a clock a few minutes ahead of Microsoft's is not refused. */
const SUBSCRIPTION_MARGIN_MINUTES = 30;

/**
 * The `clientState` of an interview's subscription: an HMAC of its reference (the interview id) keyed with
 * the app's client secret, so a notification receiver can tell Graph's calls from forgeries without
 * storing it. At most 128 characters, as Graph requires.
 */
export function subscriptionClientState(clientSecret: string, reference: string): string {
  return createHmac('sha256', clientSecret).update(`interview-subscription:${reference}`).digest('base64url');
}
/** A token is renewed this long before Microsoft says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface GraphAttendee {
  name: string;
  email: string;
}

export interface GraphMeetingInput {
  subject: string;
  /** Plain text. */
  body: string;
  location: string | null;
  /** Local wall time (`YYYY-MM-DDTHH:mm:ss`) in `timeZone`, an IANA zone. */
  start: string;
  end: string;
  timeZone: string;
  attendees: GraphAttendee[];
  /** What the meeting is for (the interview id): bound into its subscription's clientState. */
  reference?: string;
}

export interface GraphMeeting {
  eventId: string;
  onlineMeetingUrl: string | null;
  subscriptionId: string | null;
}

export interface GraphClient {
  /** Creates the organizer's meeting (and its subscription when configured). */
  schedule(organizerEmail: string, meeting: GraphMeetingInput, log: FastifyBaseLogger): Promise<GraphMeeting>;
  /**
   * Changes the organizer's meeting; answers its online meeting URL as Graph now reports it, or null when
   * Graph no longer has the meeting (deleted in Outlook): the caller makes a new one.
   */
  reschedule(
    organizerEmail: string,
    eventId: string,
    meeting: GraphMeetingInput,
    log: FastifyBaseLogger,
  ): Promise<{ onlineMeetingUrl: string | null } | null>;
  /** Cancels the meeting, which tells its attendees; a meeting Graph no longer has counts as canceled (logged). */
  cancel(organizerEmail: string, eventId: string, comment: string | null, log: FastifyBaseLogger): Promise<void>;
  /** Deletes the meeting without a word to anyone (undoing a schedule whose row could not be stored); never rejects. */
  discard(organizerEmail: string, eventId: string, log: FastifyBaseLogger): Promise<void>;
}

/** Which of the contract's errors a failed step answers. */
type Step = 'token' | 'user' | 'create' | 'subscription' | 'other';

const STEP_ERRORS: Record<Step, () => HttpError> = {
  token: () => new HttpError(503, 'unable_to_start_graph_client'),
  user: () => new HttpError(503, 'fail_to_schedule_interview'),
  create: () => new HttpError(503, 'cant_schedule_meeting'),
  subscription: () => new HttpError(503, 'fail_to_create_subscription'),
  other: () => new HttpError(503, 'fail_to_schedule_interview'),
};

class GraphCallError extends Error {
  constructor(
    readonly status: number | null,
    readonly graphCode: string | null,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface GraphResponse {
  status: number;
  body: Record<string, unknown> | null;
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Graph's own error code (`{ error: { code } }`), or the OAuth `error`: safe to log, no secret in it. */
function errorCode(body: Record<string, unknown> | null): string | null {
  const error = body?.error;
  if (typeof error === 'string') return error.slice(0, 100);
  if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string')
    return (error as { code: string }).code.slice(0, 100);
  return null;
}

function joinUrlOf(body: Record<string, unknown> | null): string | null {
  const online = body?.onlineMeeting as { joinUrl?: unknown } | null | undefined;
  const url =
    typeof online?.joinUrl === 'string'
      ? online.joinUrl
      : typeof body?.onlineMeetingUrl === 'string'
        ? body.onlineMeetingUrl
        : null;
  return url && /^https?:\/\//i.test(url) ? url : null;
}

function eventBody(meeting: GraphMeetingInput): Record<string, unknown> {
  return {
    subject: meeting.subject,
    body: { contentType: 'text', content: meeting.body },
    start: { dateTime: meeting.start, timeZone: meeting.timeZone },
    end: { dateTime: meeting.end, timeZone: meeting.timeZone },
    location: { displayName: meeting.location ?? '' },
    attendees: meeting.attendees.map((a) => ({ emailAddress: { address: a.email, name: a.name }, type: 'required' })),
    isOnlineMeeting: true,
    onlineMeetingProvider: 'teamsForBusiness',
  };
}

export function createGraphClient(
  config: GraphConfig,
  options: { timeoutMs?: number; now?: () => number } = {},
): GraphClient {
  const timeoutMs = options.timeoutMs ?? GRAPH_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  // The resource the token is for: the API's origin (https://graph.microsoft.com/.default).
  const scope = `${new URL(config.apiUrl).origin}/.default`;
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    let response: Response;
    try {
      response = await fetch(`${config.authorityUrl}/${encodeURIComponent(config.tenantId)}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          scope,
          grant_type: 'client_credentials',
        }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new GraphCallError(null, null, `token request failed: ${(error as Error).name}`);
    }
    const body = await readJson(response).catch(() => null);
    const token = body?.access_token;
    if (!response.ok || typeof token !== 'string' || token === '') {
      throw new GraphCallError(response.status, errorCode(body), 'no access token');
    }
    const seconds = typeof body?.expires_in === 'number' ? body.expires_in : Number(body?.expires_in ?? 0);
    cached = {
      token,
      expiresAt: now() + Math.max(0, (Number.isFinite(seconds) ? seconds : 0) * 1000 - TOKEN_MARGIN_MS),
    };
    return token;
  }

  /** The cached token while it lasts; one request for a new one however many calls wait for it. */
  function token(): Promise<string> {
    if (cached && cached.expiresAt > now()) return Promise.resolve(cached.token);
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function send(
    method: string,
    path: string,
    body: unknown,
    step: Step,
    log: FastifyBaseLogger,
    retried = false,
  ): Promise<GraphResponse> {
    let bearer: string;
    try {
      bearer = await token();
    } catch (error) {
      fail('token', error, log);
    }
    let response: Response;
    try {
      response = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      fail(step, new GraphCallError(null, null, `${method} failed: ${(error as Error).name}`), log);
    }
    const json = await readJson(response).catch(() => null);
    // A token revoked before its time: one more try with a new one.
    if (response.status === 401 && !retried) {
      cached = null;
      return send(method, path, body, step, log, true);
    }
    return { status: response.status, body: json };
  }

  function fail(step: Step, error: unknown, log: FastifyBaseLogger): never {
    const details =
      error instanceof GraphCallError
        ? { status: error.status, graphCode: error.graphCode, reason: error.reason }
        : { reason: (error as Error)?.name ?? 'error' };
    log.warn({ graph: { step, ...details } }, 'Microsoft Graph call failed');
    throw STEP_ERRORS[step]();
  }

  function accept(
    response: GraphResponse,
    ok: number[],
    step: Step,
    log: FastifyBaseLogger,
    what: string,
  ): Record<string, unknown> | null {
    if (ok.includes(response.status)) return response.body;
    fail(step, new GraphCallError(response.status, errorCode(response.body), what), log);
  }

  /** The organizer's Graph user id; 400 `graph_user_not_found` when Graph does not know the address. */
  async function userId(email: string, log: FastifyBaseLogger): Promise<string> {
    const response = await send('GET', `/users/${encodeURIComponent(email)}?$select=id`, undefined, 'user', log);
    if (response.status === 404) {
      log.warn({ graph: { step: 'user', status: 404 } }, 'Microsoft Graph does not know the organizer');
      throw new HttpError(400, 'graph_user_not_found', undefined, [
        { field: 'organizerId', message: 'The organizer was not found in the calendar service' },
      ]);
    }
    const body = accept(response, [200], 'user', log, 'user lookup');
    const id = body?.id;
    if (typeof id !== 'string' || id === '')
      fail('user', new GraphCallError(response.status, null, 'user without id'), log);
    return id;
  }

  const eventPath = (user: string, eventId: string) =>
    `/users/${encodeURIComponent(user)}/events/${encodeURIComponent(eventId)}`;

  async function deleteEvent(user: string, eventId: string, log: FastifyBaseLogger): Promise<void> {
    try {
      const response = await send('DELETE', eventPath(user, eventId), undefined, 'other', log);
      if (response.status !== 204 && response.status !== 404)
        log.warn({ graph: { step: 'discard', status: response.status } }, 'Microsoft Graph event could not be deleted');
    } catch {
      // Logged by send; nothing more to do.
    }
  }

  return {
    async schedule(organizerEmail, meeting, log) {
      const user = await userId(organizerEmail, log);
      const created = accept(
        await send('POST', `/users/${encodeURIComponent(user)}/events`, eventBody(meeting), 'create', log),
        [200, 201],
        'create',
        log,
        'event create',
      );
      const eventId = created?.id;
      if (typeof eventId !== 'string' || eventId === '')
        fail('create', new GraphCallError(null, null, 'event without id'), log);
      let subscriptionId: string | null = null;
      if (config.notificationUrl) {
        try {
          const response = await send(
            'POST',
            '/subscriptions',
            {
              changeType: 'updated,deleted',
              notificationUrl: config.notificationUrl,
              // Graph subscribes to collections only: the organizer's events (not the one event).
              resource: `users/${user}/events`,
              expirationDateTime: new Date(
                now() + (SUBSCRIPTION_MAX_MINUTES - SUBSCRIPTION_MARGIN_MINUTES) * 60_000,
              ).toISOString(),
              clientState: subscriptionClientState(config.clientSecret, meeting.reference ?? eventId),
            },
            'subscription',
            log,
          );
          const body = accept(response, [200, 201], 'subscription', log, 'subscription create');
          if (typeof body?.id !== 'string' || body.id === '')
            fail('subscription', new GraphCallError(response.status, null, 'subscription without id'), log);
          subscriptionId = body.id;
        } catch (error) {
          // The meeting without its subscription is not kept: the call is refused as a whole.
          await deleteEvent(user, eventId, log);
          throw error instanceof HttpError && error.code === 'unable_to_start_graph_client'
            ? error
            : STEP_ERRORS.subscription();
        }
      }
      return { eventId, onlineMeetingUrl: joinUrlOf(created), subscriptionId };
    },

    async reschedule(organizerEmail, eventId, meeting, log) {
      const user = await userId(organizerEmail, log);
      const response = await send('PATCH', eventPath(user, eventId), eventBody(meeting), 'other', log);
      if (response.status === 404) {
        log.warn({ graph: { step: 'update', status: 404 } }, 'Microsoft Graph no longer has the meeting');
        return null;
      }
      return { onlineMeetingUrl: joinUrlOf(accept(response, [200], 'other', log, 'event update')) };
    },

    async cancel(organizerEmail, eventId, comment, log) {
      const user = await userId(organizerEmail, log);
      const response = await send(
        'POST',
        `${eventPath(user, eventId)}/cancel`,
        { comment: comment ?? '' },
        'other',
        log,
      );
      if (response.status === 404) {
        log.warn(
          { graph: { step: 'cancel', status: 404 } },
          'Microsoft Graph no longer has the meeting: nothing to cancel there',
        );
        return;
      }
      accept(response, [200, 202, 204], 'other', log, 'event cancel');
    },

    async discard(organizerEmail, eventId, log) {
      try {
        await deleteEvent(await userId(organizerEmail, log), eventId, log);
      } catch {
        // Best effort: logged where it failed.
      }
    },
  };
}
