import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { notificationList } from '@portal/shared/core/notifications/results';
import { createNotification } from '../../../../db/notifications';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;
const userIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const row of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    userIds[row.email] = row.id;
});
afterAll(() => t.close());

async function list(email: string, query = '') {
  const res = await t.api({ method: 'GET', url: `/api/v1/notifications${query}`, cookie: await t.cookieFor(email) });
  expect(res.statusCode).toBe(200);
  return notificationList.parse(res.json());
}

describe('GET /api/v1/notifications', () => {
  it('lists the seeded notifications of the user, newest first, with the unread count', async () => {
    const body = await list('admin@demo.test');
    expect(body.results.map((n) => n.title)).toEqual([
      'Globex Inc updated its team',
      'Acme SOC 2 Type II 2026 is active',
      'Welcome to the portal',
    ]);
    expect(body).toMatchObject({ total: 3, unreadCount: 2, page: 1, pageSize: 20 });
    expect(body.results[2].readAt).not.toBeNull();
    expect(body.results[0]).toMatchObject({ readAt: null, link: '/settings/teams', companyId: null });
  });

  it('pages', async () => {
    const page2 = await list('admin@demo.test', '?page=2&pageSize=2');
    expect(page2.results.map((n) => n.title)).toEqual(['Welcome to the portal']);
    expect(page2).toMatchObject({ total: 3, unreadCount: 2, page: 2, pageSize: 2 });
  });

  it.each([
    ['page=0', 'page'],
    ['pageSize=101', 'pageSize'],
    ['pageSize=x', 'pageSize'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/notifications?${query}`,
      cookie: await t.cookieFor('admin@demo.test'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/api/v1/notifications' })).statusCode).toBe(401);
  });
});

describe('marking notifications read', () => {
  it("marks one of the user's own, and answers 404 for another user's", async () => {
    const mine = await createNotification(t.database.db, { userId: userIds['member@acme.test'], title: 'Mine' });
    const theirs = await createNotification(t.database.db, { userId: userIds['lead@acme.test'], title: 'Theirs' });
    const member = await t.cookieFor('member@acme.test');
    const before = (await list('member@acme.test')).unreadCount;

    const res = await t.api({ method: 'POST', url: `/api/v1/notifications/${mine.id}/read`, cookie: member });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unreadCount: before - 1 });
    // Reading again changes nothing.
    expect(
      (await t.api({ method: 'POST', url: `/api/v1/notifications/${mine.id}/read`, cookie: member })).json(),
    ).toEqual({ unreadCount: before - 1 });

    const other = await t.api({ method: 'POST', url: `/api/v1/notifications/${theirs.id}/read`, cookie: member });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found', message: 'Notification not found.' });
    const lead = await list('lead@acme.test');
    expect(lead.results.find((n) => n.id === theirs.id)?.readAt).toBeNull();
  });

  it('marks all read for this user only', async () => {
    const leadBefore = (await list('lead@acme.test')).unreadCount;
    expect((await list('consultant@demo.test')).unreadCount).toBeGreaterThan(0);
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/notifications/read-all',
      cookie: await t.cookieFor('consultant@demo.test'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unreadCount: 0 });
    const after = await list('consultant@demo.test');
    expect(after.unreadCount).toBe(0);
    expect(after.results.every((n) => n.readAt !== null)).toBe(true);
    expect((await list('lead@acme.test')).unreadCount).toBe(leadBefore);
  });

  it('needs the client header (CSRF) like every state-changing call', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/notifications/read-all',
      headers: { cookie: await t.cookieFor('both@acme.test') },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('createNotification', () => {
  it('keeps only same-origin links', async () => {
    const userId = userIds['client@globex.test'];
    const make = (link: string) => createNotification(t.database.db, { userId, title: 't', link });
    expect((await make('/requests/1')).link).toBe('/requests/1');
    for (const bad of ['javascript:alert(1)', '//evil.test/x', 'https://evil.test', '/\\evil.test', ' /x']) {
      expect((await make(bad)).link).toBeNull();
    }
  });
});

/** A real listening server: inject waits for the end of a reply, and a stream does not end. */
describe('GET /api/v1/notifications/stream', () => {
  let base: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  interface Opened {
    response: http.IncomingMessage;
    /** Resolves with the next `unread` event's data. */
    nextUnread(): Promise<{ unreadCount: number }>;
    text(): string;
    close(): void;
  }

  function open(cookie: string): Promise<Opened> {
    return new Promise((resolve, reject) => {
      const request = http.get(
        `${base}/api/v1/notifications/stream`,
        { headers: { cookie, accept: 'text/event-stream' } },
        (response) => {
          let buffer = '';
          let all = '';
          const events: { unreadCount: number }[] = [];
          const waiting: ((e: { unreadCount: number }) => void)[] = [];
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            buffer += chunk;
            all += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (!block.includes('event: unread')) continue;
              const data = JSON.parse(
                block
                  .split('\n')
                  .find((l) => l.startsWith('data: '))!
                  .slice(6),
              );
              const waiter = waiting.shift();
              if (waiter) waiter(data);
              else events.push(data);
            }
          });
          resolve({
            response,
            nextUnread: () =>
              new Promise((res, rej) => {
                const queued = events.shift();
                if (queued) return res(queued);
                const timer = setTimeout(() => rej(new Error('no unread event within 3 s')), 3000);
                waiting.push((e) => {
                  clearTimeout(timer);
                  res(e);
                });
              }),
            text: () => all,
            close: () => request.destroy(),
          });
        },
      );
      request.on('error', reject);
    });
  }

  async function waitFor(check: () => boolean) {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  }

  it('answers 401 without a session', async () => {
    const res = await fetch(`${base}/api/v1/notifications/stream`);
    expect(res.status).toBe(401);
  });

  it('sends the unread count at once and again when it changes here, and forgets a client that leaves', async () => {
    const cookie = await t.cookieFor('both@acme.test');
    const stream = await open(cookie);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['cache-control']).toBe('no-store');
    const first = await stream.nextUnread();
    expect(first).toEqual({ unreadCount: (await list('both@acme.test')).unreadCount });
    expect(stream.text()).toMatch(/^retry: \d+\n\n/);

    await t.api({ method: 'POST', url: '/api/v1/notifications/read-all', cookie });
    expect(await stream.nextUnread()).toEqual({ unreadCount: 0 });

    // A notification made elsewhere (another instance, a later feature) arrives with the poll.
    await createNotification(t.database.db, { userId: userIds['both@acme.test'], title: 'From another instance' });
    await t.app.liveEvents.pollNow();
    expect(await stream.nextUnread()).toEqual({ unreadCount: 1 });

    // Nothing changed: no event.
    await t.app.liveEvents.pollNow();
    const next = stream.nextUnread();
    await t.api({ method: 'POST', url: '/api/v1/notifications/read-all', cookie });
    expect(await next).toEqual({ unreadCount: 0 });

    expect(t.app.liveEvents.size).toBe(1);
    stream.close();
    await waitFor(() => t.app.liveEvents.size === 0);
  });

  it("sends one user's changes to that user's streams only", async () => {
    const member = await open(await t.cookieFor('member@acme.test'));
    const client = await open(await t.cookieFor('client@globex.test'));
    const memberStart = (await member.nextUnread()).unreadCount;
    await client.nextUnread();
    await createNotification(t.database.db, { userId: userIds['member@acme.test'], title: 'Only for member' });
    await t.app.liveEvents.touch(userIds['member@acme.test']);
    await t.app.liveEvents.touch(userIds['client@globex.test']);
    expect(await member.nextUnread()).toEqual({ unreadCount: memberStart + 1 });
    await expect(client.nextUnread()).rejects.toThrow('no unread event');
    member.close();
    client.close();
    await waitFor(() => t.app.liveEvents.size === 0);
  });

  it('ends open streams when the app closes', async () => {
    const other = await createTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.app.server.address() as AddressInfo).port;
    const cookie = await other.cookieFor('admin@demo.test');
    // Wrapped: a promise resolved with a promise would wait for it.
    const { ended } = await new Promise<{ ended: Promise<void> }>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/api/v1/notifications/stream`, { headers: { cookie } }, (response) => {
          response.resume();
          resolve({ ended: new Promise((done) => response.on('end', () => done())) });
        })
        .on('error', reject);
    });
    await waitFor(() => other.app.liveEvents.size === 1);
    await other.close();
    await ended;
    expect(other.app.liveEvents.size).toBe(0);
  });
});
