import { portalMessageSchema, systemSettingsListSchema } from '@portal/shared/core/schemas';
import { createTestApp, type TestApp } from '../../../../test/app';
import { stripScripts } from './system-settings';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin@demo.test');
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.database.db.deleteFrom('portal_messages').execute();
});

async function create(body: Record<string, unknown>, cookie = admin) {
  return t.api({ method: 'POST', url: '/api/v1/system-settings', cookie, payload: body });
}

async function createOk(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.statusCode).toBe(201);
  return portalMessageSchema.parse(res.json());
}

async function list(email: string, query = '?keys[]=Banner') {
  const res = await t.api({ method: 'GET', url: `/api/v1/system-settings${query}`, cookie: await t.cookieFor(email) });
  expect(res.statusCode).toBe(200);
  return systemSettingsListSchema.parse(res.json()).data;
}

describe('the seed', () => {
  it('has one inactive banner, no active banner, and an active help message', async () => {
    const fresh = await createTestApp();
    try {
      const rows = await fresh.database.db
        .selectFrom('portal_messages')
        .select(['key', 'status'])
        .orderBy('key')
        .execute();
      expect(rows).toEqual([
        { key: 'banner', status: 'inactive' },
        { key: 'help', status: 'active' },
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /api/v1/system-settings', () => {
  it('returns the banner as the first item of the list fetched by key Banner, matching keys case-insensitively', async () => {
    const banner = await createOk({ key: 'Banner', status: 'active', value: '<b>Maintenance</b> tonight' });
    await createOk({ key: 'help', status: 'active', value: 'Help text' });
    const data = await list('member@acme.test');
    expect(data).toEqual([
      {
        id: banner.id,
        key: 'banner',
        status: 'active',
        value: '<b>Maintenance</b> tonight',
        version: 1,
        dismissed: false,
        updatedAt: expect.any(String),
      },
    ]);
    expect((await list('member@acme.test', '?keys[]=banner&keys[]=HELP')).map((m) => m.key).sort()).toEqual([
      'banner',
      'help',
    ]);
    expect((await list('member@acme.test', '?keys=help')).map((m) => m.key)).toEqual(['help']);
    // as the web's client encodes it
    expect((await list('member@acme.test', '?keys%5B%5D=Banner')).map((m) => m.key)).toEqual(['banner']);
    expect((await list('member@acme.test', '')).map((m) => m.key).sort()).toEqual(['banner', 'help']);
  });

  it('shows inactive messages to staff admins only, active ones first', async () => {
    const inactive = await createOk({ key: 'banner', status: 'inactive', value: 'Draft' });
    const active = await createOk({ key: 'banner', status: 'active', value: 'Live' });
    expect((await list('member@acme.test')).map((m) => m.id)).toEqual([active.id]);
    expect((await list('consultant@demo.test')).map((m) => m.id)).toEqual([active.id]);
    expect((await list('admin@demo.test')).map((m) => m.id)).toEqual([active.id, inactive.id]);
  });

  it('answers 401 without a session and 400 naming keys for an unknown key', async () => {
    expect((await t.api({ method: 'GET', url: '/api/v1/system-settings?keys[]=Banner' })).statusCode).toBe(401);
    const res = await t.api({ method: 'GET', url: '/api/v1/system-settings?keys[]=Footer', cookie: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'keys' })],
    });
    expect(res.json().message).toContain('keys');
  });
});

describe('dismissing a message', () => {
  it('is remembered per user and per version: a changed banner shows again', async () => {
    const banner = await createOk({ key: 'banner', status: 'active', value: 'Maintenance' });
    const member = await t.cookieFor('member@acme.test');
    const dismiss = (version: number, cookie = member) =>
      t.api({ method: 'POST', url: `/api/v1/system-settings/${banner.id}/dismiss`, cookie, payload: { version } });

    expect((await dismiss(1)).statusCode).toBe(204);
    expect((await list('member@acme.test'))[0].dismissed).toBe(true);
    expect((await list('lead@acme.test'))[0].dismissed).toBe(false);

    const put = await t.api({
      method: 'PUT',
      url: `/api/v1/system-settings/${banner.id}`,
      cookie: admin,
      payload: { key: 'banner', status: 'active', value: 'Maintenance moved to Sunday' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ version: 2, value: 'Maintenance moved to Sunday' });
    expect((await list('member@acme.test'))[0]).toMatchObject({ version: 2, dismissed: false });

    // A stale tab closing the old version does not hide the new one.
    expect((await dismiss(1)).statusCode).toBe(204);
    expect((await list('member@acme.test'))[0].dismissed).toBe(false);
    expect((await dismiss(2)).statusCode).toBe(204);
    expect((await list('member@acme.test'))[0].dismissed).toBe(true);
  });

  it('rejects a missing or future version naming the field, and an unknown message with 404', async () => {
    const banner = await createOk({ key: 'banner', status: 'active', value: 'Maintenance' });
    const member = await t.cookieFor('member@acme.test');
    for (const payload of [{}, { version: 'x' }, { version: 0 }, { version: 3 }]) {
      const res = await t.api({
        method: 'POST',
        url: `/api/v1/system-settings/${banner.id}/dismiss`,
        cookie: member,
        payload,
      });
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [expect.objectContaining({ field: 'version' })],
      });
    }
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/system-settings/nope/dismiss',
      cookie: member,
      payload: { version: 1 },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('editing messages', () => {
  it('is for staff admins only: other staff and clients get 403', async () => {
    const banner = await createOk({ key: 'banner', status: 'active', value: 'Maintenance' });
    for (const email of ['consultant@demo.test', 'lead@acme.test']) {
      const cookie = await t.cookieFor(email);
      const body = { key: 'banner', status: 'active', value: 'Hacked' };
      expect((await create(body, cookie)).statusCode).toBe(403);
      expect(
        (await t.api({ method: 'PUT', url: `/api/v1/system-settings/${banner.id}`, cookie, payload: body })).statusCode,
      ).toBe(403);
      expect((await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${banner.id}`, cookie })).statusCode).toBe(
        403,
      );
    }
    expect((await list('member@acme.test'))[0].value).toBe('Maintenance');
  });

  it('creates with the trailing-slash spelling too', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/system-settings/',
      cookie: admin,
      payload: { key: 'bell', status: 'inactive', value: '' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ key: 'bell', status: 'inactive', value: '', version: 1 });
  });

  it.each([
    [{ status: 'active', value: 'x' }, 'key'],
    [{ key: 'footer', status: 'active', value: 'x' }, 'key'],
    [{ key: 'banner', status: 'on', value: 'x' }, 'status'],
    [{ key: 'banner', status: 'active' }, 'value'],
    [{ key: 'banner', status: 'active', value: 42 }, 'value'],
    [{ key: 'banner', status: 'active', value: 'x'.repeat(20001) }, 'value'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(res.json().message).toContain(field);
  });

  it('accepts a value of exactly 20000 characters', async () => {
    expect((await create({ key: 'help', status: 'active', value: 'x'.repeat(20000) })).statusCode).toBe(201);
  });

  it('strips script elements before storing; the rest is kept as given', async () => {
    const message = await createOk({
      key: 'banner',
      status: 'active',
      value: 'Hello <script>alert(1)</script><img src=x onerror=alert(1)><scr<script>x</script>ipt>alert(2)</script>',
    });
    expect(message.value).not.toMatch(/<script/i);
    expect(message.value).toContain('<img src=x onerror=alert(1)>');
  });

  it('updates and deletes, 404 for an unknown id', async () => {
    const banner = await createOk({ key: 'banner', status: 'active', value: 'Maintenance' });
    const body = { key: 'banner', status: 'inactive', value: 'Maintenance' };
    const put = await t.api({
      method: 'PUT',
      url: `/api/v1/system-settings/${banner.id}`,
      cookie: admin,
      payload: body,
    });
    expect(put.json()).toMatchObject({ status: 'inactive', version: 2 });
    expect(await list('member@acme.test')).toEqual([]);
    expect(
      (await t.api({ method: 'PUT', url: '/api/v1/system-settings/nope', cookie: admin, payload: body })).statusCode,
    ).toBe(404);
    expect(
      (await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${banner.id}`, cookie: admin })).statusCode,
    ).toBe(204);
    expect(
      (await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${banner.id}`, cookie: admin })).statusCode,
    ).toBe(404);
    expect(await list('admin@demo.test')).toEqual([]);
  });
});

describe('stripScripts', () => {
  it.each([
    ['<p>a</p><script src="x.js"></script>', '<p>a</p>'],
    ['<SCRIPT>alert(1)</SCRIPT >b', 'b'],
    ['<scr<script></script>ipt>alert(1)</script>', 'alert(1)'],
    ['<script>never closed', 'never closed'],
  ])('%s -> %s', (input, output) => {
    expect(stripScripts(input)).toBe(output);
  });
});
