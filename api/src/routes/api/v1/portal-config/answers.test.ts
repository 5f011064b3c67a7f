/**
 * Health, config, feature flags, system settings, notifications, documents, transfers and reports:
 * their real answers on the seeded data (and on writes made here) against their operations' result
 * schemas (test/answers.ts).
 */
import type { z } from 'zod';
import { transfer } from '@portal/shared/core/files/results';
import { REPORT_KINDS } from '@portal/shared/core/reports';
import { createTestApp, type TestApp } from '../../../../test/app';
import { ANSWER_TESTS, answerProblem } from '../../../../test/answers';
import { multipart } from '../../../../test/multipart';

const KEYS = ANSWER_TESTS['routes/api/v1/portal-config/answers.test.ts'];

let t: TestApp;
// every company, project, file, transfer and report of the seed is called: no rate limit in the way
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
});
afterAll(() => t.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);

/** The first issue of a body its operation's result schema refuses, or null. */
function problemOf(key: string, url: string, body: unknown): string | null {
  return answerProblem(t.app, key, url, body);
}

const companyId = async (name: string) =>
  (await t.database.db.selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describe('the answers of health, config, flags, settings, notifications, documents, transfers and reports', () => {
  it('allow the 2xx answers of the writes', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const lead = await t.cookieFor('lead@acme.test');
    const member = await t.cookieFor('member@acme.test');
    const acme = await companyId('Acme Corp');
    const answers: { key: string; url: string; status: number; body: unknown }[] = [];
    const call = async (
      key: string,
      cookie: string,
      options: { url: string; payload?: object | Buffer; headers?: Record<string, string> },
    ) => {
      const res = await t.api({ method: key.split(' ')[0] as 'GET', cookie, ...options });
      answers.push({ key, url: options.url, status: res.statusCode, body: res.json() });
      return res.json() as Record<string, unknown>;
    };

    // feature flags: created (201) and replaced (200), with rules, variants and JSON values
    await call('PUT /api/v1/feature-flags/:key', admin, {
      url: '/api/v1/feature-flags/schema-check',
      payload: {
        description: 'A check',
        defaultValue: 'off',
        rules: [{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: 'on', variant: 'staff' }],
      },
    });
    await call('PUT /api/v1/feature-flags/:key', admin, {
      url: '/api/v1/feature-flags/schema-check',
      payload: {
        defaultValue: { limits: [1, 2.5, null], nested: { on: false } },
        rules: [{ if: { attribute: 'email', op: 'in', value: ['lead@acme.test'] }, value: { limits: [], nested: {} } }],
        enabled: true,
      },
    });
    await call('PUT /api/v1/feature-flags/:key', admin, {
      url: '/api/v1/feature-flags/schema-off',
      payload: { defaultValue: 3, enabled: false },
    });

    // system settings: created on both spellings, replaced, files attached
    const created = await call('POST /api/v1/system-settings', admin, {
      url: '/api/v1/system-settings',
      payload: { key: 'Help', status: 'inactive', value: '<p>Help</p>' },
    });
    await call('POST /api/v1/system-settings/', admin, {
      url: '/api/v1/system-settings/',
      payload: { key: 'bell', status: 'active', value: 'Ring' },
    });
    await call('PUT /api/v1/system-settings/:id', admin, {
      url: `/api/v1/system-settings/${String(created.id)}`,
      payload: { key: 'help', status: 'active', value: 'Help <script>x</script>' },
    });
    await call('PATCH /api/v1/system-settings/:id/files', admin, {
      url: `/api/v1/system-settings/${String(created.id)}/files`,
      ...multipart(
        [],
        [
          { filename: 'guide.pdf', data: PDF },
          { filename: 'logo.png', data: PNG },
        ],
      ),
    });

    // transfers: one plain, one behind a passphrase with a message
    const recipients = await call('GET /api/v1/companies/:id/transfer-recipients', lead, {
      url: `/api/v1/companies/${acme}/transfer-recipients`,
    });
    const memberId =
      (recipients.results as { id: string; email: string }[]).find((r) => r.email === 'member@acme.test')?.id ?? '';
    const sent = await call('POST /api/v1/companies/:id/transfers', lead, {
      url: `/api/v1/companies/${acme}/transfers`,
      ...multipart([['recipientIds[]', memberId]], [{ filename: 'report.pdf', data: PDF }]),
    });
    await call('POST /api/v1/companies/:id/transfers', lead, {
      url: `/api/v1/companies/${acme}/transfers`,
      ...multipart(
        [
          ['recipientIds', memberId],
          ['message', 'For you'],
          ['expiresInDays', '1'],
          ['passphrase', 'correct horse'],
        ],
        [
          { filename: 'a.pdf', data: PDF },
          { filename: 'b.png', data: PNG },
        ],
      ),
    });
    // a download, so the transfer shows who took it
    const fileId = (sent.files as { id: string }[])[0].id;
    const link = await t.api({ method: 'GET', url: `/api/v1/files/${fileId}/signed-url`, cookie: member });
    expect((await t.api({ method: 'GET', url: (link.json() as { url: string }).url, cookie: member })).statusCode).toBe(
      200,
    );

    // notifications: one read, then all
    const [note] = await t.database.db
      .selectFrom('notifications')
      .innerJoin('users', 'users.id', 'notifications.user_id')
      .select('notifications.id')
      .where('users.email', '=', 'lead@acme.test')
      .where('notifications.read_at', 'is', null)
      .limit(1)
      .execute();
    expect(note).toBeDefined();
    await call('POST /api/v1/notifications/:id/read', lead, { url: `/api/v1/notifications/${note.id}/read` });
    await call('POST /api/v1/notifications/read-all', member, { url: '/api/v1/notifications/read-all' });

    expect(
      answers.filter((a) => a.status >= 300).map((a) => `${a.key} ${a.url}: ${a.status} ${JSON.stringify(a.body)}`),
    ).toEqual([]);
    expect(answers.flatMap((a) => problemOf(a.key, a.url, a.body) ?? [])).toEqual([]);
    // every write of the list answered at least once
    const writes = KEYS.filter((key) => !key.startsWith('GET '));
    expect(new Set(answers.map((a) => a.key).filter((key) => !key.startsWith('GET ')))).toEqual(new Set(writes));
  });

  /** Every GET operation with a result schema, called for every seeded (and written) thing the caller may see. */
  async function answers(cookie: string): Promise<{ key: string; url: string; body: unknown }[]> {
    const db = t.database.db;
    const companies = (await db.selectFrom('companies').select('id').execute()).map((r) => r.id);
    const projects = await db.selectFrom('projects').select(['id', 'company_id']).execute();
    const messages = await db.selectFrom('portal_messages').select('id').execute();
    const transfers = await db.selectFrom('transfers').select('id').execute();
    const fileIds = [
      ...(await db.selectFrom('files').select('id').execute()),
      ...(await db.selectFrom('system_setting_files').select('id').execute()),
      ...(await db.selectFrom('transfer_files').select('id').execute()),
    ].map((f) => f.id);
    const calls: { key: string; url: string }[] = [
      { key: 'GET /api/v1/health', url: '/api/v1/health' },
      { key: 'GET /api/v1/portal-config', url: '/api/v1/portal-config' },
      { key: 'GET /api/v1/feature-flags', url: '/api/v1/feature-flags' },
      { key: 'GET /api/v1/feature-flags/definitions', url: '/api/v1/feature-flags/definitions' },
      { key: 'GET /api/v1/system-settings', url: '/api/v1/system-settings' },
      { key: 'GET /api/v1/system-settings', url: '/api/v1/system-settings?keys[]=Banner&keys[]=help' },
      { key: 'GET /api/v1/notifications', url: '/api/v1/notifications?pageSize=100' },
      { key: 'GET /api/v1/notifications', url: '/api/v1/notifications?page=50' },
      ...messages.map((m) => ({
        key: 'GET /api/v1/system-settings/:id/files',
        url: `/api/v1/system-settings/${m.id}/files`,
      })),
      ...fileIds.map((f) => ({ key: 'GET /api/v1/files/:id/signed-url', url: `/api/v1/files/${f}/signed-url` })),
      ...transfers.map((tr) => ({ key: 'GET /api/v1/transfers/:id', url: `/api/v1/transfers/${tr.id}` })),
      ...companies.flatMap((c) => [
        { key: 'GET /api/v1/companies/:id/files', url: `/api/v1/companies/${c}/files?pageSize=200` },
        { key: 'GET /api/v1/companies/:id/transfer-recipients', url: `/api/v1/companies/${c}/transfer-recipients` },
        {
          key: 'GET /api/v1/companies/:id/transfers',
          url: `/api/v1/companies/${c}/transfers?box=received&pageSize=200`,
        },
        { key: 'GET /api/v1/companies/:id/transfers', url: `/api/v1/companies/${c}/transfers?box=sent&pageSize=200` },
        { key: 'GET /api/v1/companies/:id/reports/options', url: `/api/v1/companies/${c}/reports/options` },
        ...REPORT_KINDS.flatMap((kind) => [
          { key: 'GET /api/v1/companies/:id/reports/:kind', url: `/api/v1/companies/${c}/reports/${kind}` },
          // a short period: weekly progress; the default all-time one may go monthly
          {
            key: 'GET /api/v1/companies/:id/reports/:kind',
            url: `/api/v1/companies/${c}/reports/${kind}?from=${daysAgo(30)}&to=${daysAgo(0)}`,
          },
          // a long one: monthly progress
          {
            key: 'GET /api/v1/companies/:id/reports/:kind',
            url: `/api/v1/companies/${c}/reports/${kind}?from=2000-01-01&today=${daysAgo(0)}`,
          },
        ]),
      ]),
      ...projects.flatMap((p) =>
        REPORT_KINDS.map((kind) => ({
          key: 'GET /api/v1/companies/:id/reports/:kind',
          url: `/api/v1/companies/${p.company_id}/reports/${kind}?projectId=${p.id}`,
        })),
      ),
    ];
    const out: { key: string; url: string; body: unknown }[] = [];
    for (const call of calls) {
      const res = await t.api({ method: 'GET', url: call.url, cookie });
      if (res.statusCode === 200) out.push({ ...call, body: res.json() });
    }
    return out;
  }

  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const getKeys = KEYS.filter((key) => key.startsWith('GET '));
  const seenKeys: string[] = [];

  it.each(['admin@demo.test', 'lead@acme.test', 'member@acme.test'])('allow every real answer to %s', async (email) => {
    const seen = await answers(await t.cookieFor(email));
    seenKeys.push(...seen.map((a) => a.key));
    const problems = seen.flatMap(({ key, url, body }) => problemOf(key, url, body) ?? []);
    expect(problems).toEqual([]);
  });

  it('answered every GET operation at least once', () => {
    // each operation answered at least once, so no schema goes unchecked
    expect([...new Set(seenKeys)].sort()).toEqual([...getKeys].sort());
  });

  it('refuse a body with a field missing, of another type or undocumented', async () => {
    const [row] = await t.database.db.selectFrom('transfers').select('id').limit(1).execute();
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/transfers/${row.id}`,
      cookie: await t.cookieFor('lead@acme.test'),
    });
    const body = res.json() as z.output<typeof transfer> & Record<string, unknown>;
    expect(transfer.safeParse(body).success).toBe(true);
    const withChange = (change: (copy: Record<string, unknown>) => void) => {
      const copy = structuredClone(body) as Record<string, unknown>;
      change(copy);
      return transfer.safeParse(copy).success;
    };
    expect(withChange((copy) => delete copy.hasPassphrase)).toBe(false);
    expect(withChange((copy) => (copy.message = 1))).toBe(false);
    expect(withChange((copy) => (copy.expiresAt = 'tomorrow'))).toBe(false);
    expect(withChange((copy) => (copy.passphraseHash = 'x'))).toBe(false);
    expect(withChange((copy) => ((copy.files as Record<string, unknown>[])[0].storageKey = 'k'))).toBe(false);
  });
});
