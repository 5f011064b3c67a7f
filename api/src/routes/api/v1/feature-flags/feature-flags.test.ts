import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FeatureFlagsPayload } from '@portal/shared/core/feature-flags';
import { createTestApp, type TestApp } from '../../../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const flagsOf = async (email: string, url = '/api/v1/feature-flags', headers: Record<string, string> = {}) => {
  const res = await t.api({ method: 'GET', url, cookie: await t.cookieFor(email), headers });
  expect(res.statusCode).toBe(200);
  return res.json() as FeatureFlagsPayload;
};
const put = async (key: string, payload: unknown, email = 'admin@demo.test') =>
  t.api({
    method: 'PUT',
    url: `/api/v1/feature-flags/${key}`,
    cookie: await t.cookieFor(email),
    payload: payload as object,
  });
const del = async (key: string, email = 'admin@demo.test') =>
  t.api({ method: 'DELETE', url: `/api/v1/feature-flags/${key}`, cookie: await t.cookieFor(email) });

describe('GET /api/v1/feature-flags', () => {
  it('serves the seeded flags evaluated for the signed-in user, uncached', async () => {
    const res = await t.api({
      method: 'GET',
      url: '/api/v1/feature-flags',
      cookie: await t.cookieFor('member@acme.test'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as FeatureFlagsPayload;
    expect(body.flags).toMatchObject({
      'notifications-bell': { value: true, reason: 'STATIC' },
      'header-help-link': { value: false, reason: 'STATIC' },
      'help-url': { value: 'mailto:support@demo.test', reason: 'STATIC' },
      'staff-preview': { value: false, reason: 'DEFAULT' },
    });
    expect(typeof body.version).toBe('string');
  });

  it('targets staff by the session, not by anything the client sends', async () => {
    expect((await flagsOf('consultant@demo.test')).flags['staff-preview']).toEqual({
      value: true,
      variant: 'staff',
      reason: 'TARGETING_MATCH',
    });
    // a client claiming to be staff in the query or headers is still a client
    const spoofed = await flagsOf(
      'member@acme.test',
      '/api/v1/feature-flags?isTevora=true&key=someone-else&custom[isTevora]=true',
      {
        'x-feature-flag-context': JSON.stringify({ key: 'x', custom: { isTevora: true } }),
      },
    );
    expect(spoofed.flags['staff-preview']).toEqual({ value: false, reason: 'DEFAULT' });
  });

  it('targets by email and company membership from the database', async () => {
    expect(
      (
        await put('acme-beta', {
          defaultValue: 'off',
          rules: [
            { if: { attribute: 'email', op: 'eq', value: 'lead@acme.test' }, value: 'lead' },
            { if: { attribute: 'companyIds', op: 'in', value: [await companyId('Acme Corp')] }, value: 'acme' },
          ],
        })
      ).statusCode,
    ).toBe(201);
    expect((await flagsOf('lead@acme.test')).flags['acme-beta'].value).toBe('lead');
    expect((await flagsOf('member@acme.test')).flags['acme-beta'].value).toBe('acme');
    expect((await flagsOf('client@globex.test')).flags['acme-beta']).toEqual({ value: 'off', reason: 'DEFAULT' });
    expect((await del('acme-beta')).statusCode).toBe(204);
  });

  it('serves the default with reason DISABLED for a disabled flag, and a new version after every write', async () => {
    const before = (await flagsOf('consultant@demo.test')).version;
    await put('staff-only', {
      defaultValue: false,
      enabled: false,
      rules: [{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: true }],
    });
    const after = await flagsOf('consultant@demo.test');
    expect(after.flags['staff-only']).toEqual({ value: false, reason: 'DISABLED' });
    expect(after.version).not.toBe(before);
    await del('staff-only');
    expect((await flagsOf('consultant@demo.test')).version).not.toBe(after.version);
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/api/v1/feature-flags' })).statusCode).toBe(401);
    expect((await t.api({ method: 'GET', url: '/api/v1/feature-flags/stream' })).statusCode).toBe(401);
  });
});

async function companyId(name: string): Promise<string> {
  return (await t.database.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow())
    .id;
}

describe('staff admins write flags', () => {
  it('creates (201, version 1), replaces (200, version + 1), lists and deletes', async () => {
    const created = await put('new-thing', { description: 'A new thing', defaultValue: { limit: 3 } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      key: 'new-thing',
      description: 'A new thing',
      defaultValue: { limit: 3 },
      rules: [],
      enabled: true,
      version: 1,
    });

    const updated = await put('new-thing', { defaultValue: { limit: 5 }, enabled: false });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ defaultValue: { limit: 5 }, enabled: false, version: 2, description: '' });

    const list = await t.api({
      method: 'GET',
      url: '/api/v1/feature-flags/definitions',
      cookie: await t.cookieFor('admin@demo.test'),
    });
    expect(list.statusCode).toBe(200);
    const keys = (list.json() as { results: { key: string }[] }).results.map((f) => f.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual(expect.arrayContaining(['header-help-link', 'new-thing', 'notifications-bell']));

    expect((await del('new-thing')).statusCode).toBe(204);
    const again = await del('new-thing');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'feature_flag_not_found' });
  });

  it.each(['consultant@demo.test', 'auditor@demo.test', 'lead@acme.test', 'member@acme.test'])(
    'refuses %s with 403',
    async (email) => {
      const cookie = await t.cookieFor(email);
      for (const res of [
        await put('header-help-link', { defaultValue: true }, email),
        await del('header-help-link', email),
        await t.api({ method: 'GET', url: '/api/v1/feature-flags/definitions', cookie }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
      }
      expect((await flagsOf('admin@demo.test')).flags['header-help-link'].value).toBe(false);
    },
  );

  it('refuses writes without the client header (CSRF)', async () => {
    const res = await t.inject({
      method: 'PUT',
      url: '/api/v1/feature-flags/x',
      headers: { cookie: await t.cookieFor('admin@demo.test') },
      payload: { defaultValue: true },
    });
    expect(res.statusCode).toBe(403);
  });

  const invalid: [string, string, unknown, string][] = [
    ['a key with capitals', 'Bad_Key', { defaultValue: true }, 'key'],
    ['a key longer than 64 characters', `a${'b'.repeat(64)}`, { defaultValue: true }, 'key'],
    ['no default value', 'x', {}, 'defaultValue'],
    ['a null default', 'x', { defaultValue: null }, 'defaultValue'],
    ['a value over 4 KB', 'x', { defaultValue: 'y'.repeat(4100) }, 'defaultValue'],
    ['an unknown field', 'x', { defaultValue: true, enabeld: false }, 'enabeld'],
    ['enabled that is not a boolean', 'x', { defaultValue: true, enabled: 'yes' }, 'enabled'],
    [
      'an unknown attribute',
      'x',
      { defaultValue: true, rules: [{ if: { attribute: 'shoeSize', op: 'eq', value: 1 }, value: false }] },
      'rules.0.if.attribute',
    ],
    [
      'an operator the attribute lacks',
      'x',
      { defaultValue: true, rules: [{ if: { attribute: 'isTevora', op: 'endsWith', value: 'x' }, value: false }] },
      'rules.0.if.op',
    ],
    [
      'an operand of the wrong type',
      'x',
      { defaultValue: true, rules: [{ if: { attribute: 'isTevora', op: 'eq', value: 'yes' }, value: false }] },
      'rules.0.if.value',
    ],
    [
      'an operand over 64 characters',
      'x',
      {
        defaultValue: true,
        rules: [{ if: { attribute: 'email', op: 'endsWith', value: 'e'.repeat(65) }, value: false }],
      },
      'rules.0.if.value',
    ],
    [
      'a variant over 64 characters',
      'x',
      {
        defaultValue: true,
        rules: [{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: false, variant: 'v'.repeat(65) }],
      },
      'rules.0.variant',
    ],
    [
      'a rule serving another type',
      'x',
      { defaultValue: true, rules: [{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: 'on' }] },
      'rules.0.value',
    ],
  ];
  it.each(invalid)('answers 400 validation_failed naming the field for %s', async (_label, key, payload, field) => {
    const res = await put(key, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; message: string; details: { field: string }[] };
    expect(body.code).toBe('validation_failed');
    expect(body.details.map((d) => d.field)).toContain(field);
    expect(body.message).toContain(field);
    expect(
      (
        await t.api({
          method: 'GET',
          url: '/api/v1/feature-flags/definitions',
          cookie: await t.cookieFor('admin@demo.test'),
        })
      )
        .json()
        .results.map((f: { key: string }) => f.key),
    ).not.toContain(key);
  });
});

/** A browser-like reader of the event stream, over a real socket (inject cannot stream). */
class StreamClient {
  readonly events: { event: string; data: unknown }[] = [];
  status = 0;
  ended = false;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private req: http.ClientRequest;

  constructor(port: number, cookie: string) {
    this.req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/feature-flags/stream',
        headers: { cookie, accept: 'text/event-stream' },
      },
      (res) => {
        this.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          this.buffer += chunk;
          let end: number;
          while ((end = this.buffer.indexOf('\n\n')) >= 0) {
            const block = this.buffer.slice(0, end);
            this.buffer = this.buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (data !== undefined) this.events.push({ event, data: JSON.parse(data) });
          }
          this.wake();
        });
        res.on('end', () => {
          this.ended = true;
          this.wake();
        });
      },
    );
    this.req.on('error', () => undefined);
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits for the first event (from `from` on) that passes `test`. */
  async next(
    test: (e: { event: string; data: unknown }) => boolean,
    from = 0,
    timeoutMs = 5000,
  ): Promise<{ event: string; data: unknown; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex((e, i) => i >= from && test(e));
      if (index >= 0) return { ...this.events[index], index };
      if (Date.now() > deadline) throw new Error(`no matching event; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close() {
    this.req.destroy();
  }
}

describe('GET /api/v1/feature-flags/stream', () => {
  let s: TestApp;
  let port: number;
  beforeAll(async () => {
    s = await createTestApp();
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.server.address() as AddressInfo).port;
  });
  afterAll(() => s.close());

  const helpLinkIs = (value: boolean) => (e: { event: string; data: unknown }) =>
    e.event === 'flags' && (e.data as FeatureFlagsPayload).flags['header-help-link']?.value === value;

  it('sends the current flags first, then re-evaluated flags after an admin changes one, then after another instance does', async () => {
    const client = new StreamClient(port, await s.cookieFor('member@acme.test'));
    try {
      const first = await client.next(helpLinkIs(false));
      expect(client.status).toBe(200);
      expect(first.index).toBe(0);

      const res = await s.api({
        method: 'PUT',
        url: '/api/v1/feature-flags/header-help-link',
        cookie: await s.cookieFor('admin@demo.test'),
        payload: { defaultValue: true },
      });
      expect(res.statusCode).toBe(200);
      const changed = await client.next(helpLinkIs(true), first.index + 1, 1000);
      expect((changed.data as FeatureFlagsPayload).version).not.toBe((first.data as FeatureFlagsPayload).version);

      // Another api instance writes straight to the shared database: the poll finds it within ~2 s.
      await s.database.db
        .updateTable('feature_flags')
        .set({ default_value: 'false', version: 99, updated_at: new Date().toISOString() })
        .where('key', '=', 'header-help-link')
        .execute();
      await client.next(helpLinkIs(false), changed.index + 1, 6000);
    } finally {
      client.close();
    }
  });

  it('sends a user only values evaluated for them', async () => {
    const staff = new StreamClient(port, await s.cookieFor('consultant@demo.test'));
    const member = new StreamClient(port, await s.cookieFor('member@acme.test'));
    try {
      const isFlags = (e: { event: string }) => e.event === 'flags';
      expect(((await staff.next(isFlags)).data as FeatureFlagsPayload).flags['staff-preview'].value).toBe(true);
      expect(((await member.next(isFlags)).data as FeatureFlagsPayload).flags['staff-preview'].value).toBe(false);
    } finally {
      staff.close();
      member.close();
    }
  });

  it('ends open streams when the app closes', async () => {
    const client = new StreamClient(port, await s.cookieFor('member@acme.test'));
    await client.next((e) => e.event === 'flags');
    await s.app.close(); // would time out if an open stream kept the server from closing
    const deadline = Date.now() + 2000;
    while (!client.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(client.ended).toBe(true);
  });
});
