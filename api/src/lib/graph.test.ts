import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../config';
import { FAKE_GRAPH_SECRET, startFakeGraph, type FakeGraph } from '../test/fake-graph';
import { createGraphClient, subscriptionClientState, SUBSCRIPTION_MAX_MINUTES, type GraphMeetingInput } from './graph';
import { HttpError } from './http-error';

let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
});
afterAll(() => graph.close());
beforeEach(() => graph.reset());

/** A logger that keeps what it was given, to show no secret reaches it. */
function recordingLog() {
  const lines: unknown[] = [];
  const log = {
    warn: (...args: unknown[]) => lines.push(args),
    info: () => {},
    error: (...args: unknown[]) => lines.push(args),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const meeting: GraphMeetingInput = {
  subject: 'Access walkthrough',
  body: 'Bring the user list',
  location: 'Room 4',
  start: '2026-12-01T10:00:00',
  end: '2026-12-01T11:00:00',
  timeZone: 'America/New_York',
  attendees: [{ name: 'Laura Chen', email: 'lead@acme.test' }],
};

const client = (subscriptions = false, timeoutMs?: number) =>
  createGraphClient(loadConfig(graph.env({ subscriptions })).graph!, { timeoutMs });

async function refusal(work: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return { status: (error as HttpError).statusCode, code: (error as HttpError).code };
}

describe('createGraphClient', () => {
  it("creates an online meeting in the organizer's calendar and keeps its token", async () => {
    const { log } = recordingLog();
    const c = client();
    const before = graph.tokensIssued;
    const created = await c.schedule('consultant@demo.test', meeting, log);
    expect(created).toEqual({
      eventId: expect.stringMatching(/^event-/),
      onlineMeetingUrl: `https://teams.example.test/meet/${created.eventId}`,
      subscriptionId: null,
    });
    expect(graph.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /users/consultant@demo.test',
      'POST /users/graph-user-consultant@demo.test/events',
    ]);
    expect(graph.requests[1].body).toMatchObject({
      subject: 'Access walkthrough',
      isOnlineMeeting: true,
      start: { dateTime: '2026-12-01T10:00:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-12-01T11:00:00', timeZone: 'America/New_York' },
      location: { displayName: 'Room 4' },
      attendees: [{ emailAddress: { address: 'lead@acme.test', name: 'Laura Chen' }, type: 'required' }],
    });
    await c.reschedule('consultant@demo.test', created.eventId, { ...meeting, subject: 'Moved' }, log);
    await c.cancel('consultant@demo.test', created.eventId, 'No longer needed', log);
    expect(graph.requests.slice(2).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /users/consultant@demo.test',
      `PATCH /users/graph-user-consultant@demo.test/events/${created.eventId}`,
      'GET /users/consultant@demo.test',
      `POST /users/graph-user-consultant@demo.test/events/${created.eventId}/cancel`,
    ]);
    expect(graph.events.has(created.eventId)).toBe(false);
    // One token served every call.
    expect(graph.tokensIssued - before).toBe(1);
  });

  it("subscribes to the organizer's events when a notification URL is configured, for less than Graph's maximum", async () => {
    const { log } = recordingLog();
    const started = Date.now();
    const created = await client(true).schedule('consultant@demo.test', { ...meeting, reference: 'interview-1' }, log);
    expect(created.subscriptionId).toMatch(/^subscription-/);
    const subscription = graph.requests.find((r) => r.path === '/subscriptions')!;
    expect(subscription.body).toMatchObject({
      changeType: 'updated,deleted',
      notificationUrl: 'https://portal.example.test/graph/notifications',
      // Graph subscribes to collections, not to one event.
      resource: 'users/graph-user-consultant@demo.test/events',
      // Verifiable later without storing it, and never the secret itself.
      clientState: subscriptionClientState(FAKE_GRAPH_SECRET, 'interview-1'),
    });
    const clientState = subscription.body!.clientState as string;
    expect(clientState).not.toContain(FAKE_GRAPH_SECRET);
    expect(clientState.length).toBeLessThanOrEqual(128);
    expect(subscriptionClientState(FAKE_GRAPH_SECRET, 'interview-2')).not.toBe(clientState);
    const expires = Date.parse(subscription.body!.expirationDateTime as string);
    expect(expires - started).toBeLessThan(SUBSCRIPTION_MAX_MINUTES * 60_000);
    expect(expires - started).toBeGreaterThan(2 * 86_400_000);
  });

  it.each([
    ['token', 500, 503, 'unable_to_start_graph_client'],
    ['user', 500, 503, 'fail_to_schedule_interview'],
    ['create', 400, 503, 'cant_schedule_meeting'],
  ] as const)('answers a %s failure (%i) with %i %s', async (step, status, expected, code) => {
    graph.failures[step] = status;
    const { log, lines } = recordingLog();
    expect(await refusal(client().schedule('consultant@demo.test', meeting, log))).toEqual({ status: expected, code });
    expect(graph.events.size).toBe(0);
    expect(JSON.stringify(lines)).not.toMatch(new RegExp(`${FAKE_GRAPH_SECRET}|token-\\d`));
  });

  it('answers an organizer Graph does not know with 400 graph_user_not_found', async () => {
    graph.unknownUsers.add('nobody@demo.test');
    expect(await refusal(client().schedule('nobody@demo.test', meeting, recordingLog().log))).toEqual({
      status: 400,
      code: 'graph_user_not_found',
    });
  });

  it('answers a wrong secret with 503 unable_to_start_graph_client', async () => {
    const c = createGraphClient({ ...loadConfig(graph.env()).graph!, clientSecret: 'wrong' });
    const { log, lines } = recordingLog();
    expect(await refusal(c.schedule('consultant@demo.test', meeting, log))).toEqual({
      status: 503,
      code: 'unable_to_start_graph_client',
    });
    expect(JSON.stringify(lines)).not.toContain('wrong');
  });

  it('deletes the new event when its subscription fails, and answers 503 fail_to_create_subscription', async () => {
    graph.failures.subscription = 500;
    expect(await refusal(client(true).schedule('consultant@demo.test', meeting, recordingLog().log))).toEqual({
      status: 503,
      code: 'fail_to_create_subscription',
    });
    expect(graph.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'DELETE']);
    expect(graph.events.size).toBe(0);
  });

  it('answers failed updates and cancels with 503 fail_to_schedule_interview; a cancel of a gone event succeeds', async () => {
    const { log } = recordingLog();
    const c = client();
    const { eventId } = await c.schedule('consultant@demo.test', meeting, log);
    graph.failures.update = 500;
    expect(await refusal(c.reschedule('consultant@demo.test', eventId, meeting, log))).toEqual({
      status: 503,
      code: 'fail_to_schedule_interview',
    });
    graph.failures.cancel = 500;
    expect(await refusal(c.cancel('consultant@demo.test', eventId, null, log))).toEqual({
      status: 503,
      code: 'fail_to_schedule_interview',
    });
    delete graph.failures.cancel;
    await expect(c.cancel('consultant@demo.test', 'event-gone', null, log)).resolves.toBeUndefined();
  });

  it('answers null to a reschedule of an event Graph no longer has', async () => {
    const { log, lines } = recordingLog();
    await expect(client().reschedule('consultant@demo.test', 'event-gone', meeting, log)).resolves.toBeNull();
    expect(JSON.stringify(lines)).toContain('no longer has the meeting');
  });

  it('gives up on a server that does not answer in time', async () => {
    // An address that accepts the connection and never answers: a server of our own that holds requests.
    const http = await import('node:http');
    const held: import('node:http').ServerResponse[] = [];
    const silent = http.createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    try {
      const config = { ...loadConfig(graph.env()).graph!, authorityUrl: `http://127.0.0.1:${port}` };
      const started = Date.now();
      expect(
        await refusal(
          createGraphClient(config, { timeoutMs: 200 }).schedule('consultant@demo.test', meeting, recordingLog().log),
        ),
      ).toEqual({
        status: 503,
        code: 'unable_to_start_graph_client',
      });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const res of held) res.destroy();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
