import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { auditEntrySchema, type AuditEntry } from '@portal/shared/core/settings';
import { insertAuditRecord } from '../../../../db/audit-log';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';
import { createTestIdentityProvider } from '../../../../test/saml-idp';

let t: TestApp;
let admin: string;
let acmeId: string;
let globexId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin@demo.test');
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
});
afterAll(() => t.close());

const pageSchema = z.object({
  results: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

async function auditLog(query = '') {
  const res = await t.api({ method: 'GET', url: `/api/v1/audit-log${query}`, cookie: admin });
  expect({ query, status: res.statusCode }).toEqual({ query, status: 200 });
  return pageSchema.parse(res.json());
}

async function latest(action: string): Promise<AuditEntry> {
  const { results } = await auditLog(`?action=${encodeURIComponent(action)}&pageSize=1`);
  expect(results).toHaveLength(1);
  expect(results[0].action).toBe(action);
  return results[0];
}

describe('GET /api/v1/audit-log', () => {
  it('shows staff admins the seeded history, newest first, with paging fields', async () => {
    const page = await auditLog();
    expect(page).toMatchObject({ page: 1, pageSize: 50 });
    expect(page.total).toBeGreaterThanOrEqual(10);
    const times = page.results.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.results.map((e) => e.action)).toEqual(
      expect.arrayContaining(['company.create', 'team.member.add', 'company.passwordPolicy.update']),
    );
    const created = page.results.find((e) => e.action === 'company.create' && e.targetLabel === 'Initech LLC');
    expect(created).toMatchObject({
      actor: { email: 'admin@demo.test' },
      targetType: 'company',
      before: null,
      after: { name: 'Initech LLC' },
    });
    expect(Date.now() - Date.parse(created!.createdAt)).toBeGreaterThan(30 * 24 * 3_600_000);
  });

  it('pages', async () => {
    const all = await auditLog('?pageSize=200');
    const second = await auditLog('?pageSize=3&page=2');
    expect(second).toMatchObject({ page: 2, pageSize: 3, total: all.total });
    expect(second.results.map((e) => e.id)).toEqual(all.results.slice(3, 6).map((e) => e.id));
  });

  it('filters by action (and the actions under it), target type, company, actor, text and time', async () => {
    const teamActions = (await auditLog('?action=team&pageSize=200')).results.map((e) => e.action);
    expect(teamActions.length).toBeGreaterThan(0);
    for (const action of teamActions) expect(action).toMatch(/^team\./);
    // a prefix counts only at a dot: `comp` is not `company`
    expect((await auditLog('?action=comp')).total).toBe(0);

    for (const e of (await auditLog('?targetType=company&pageSize=200')).results) expect(e.targetType).toBe('company');
    const acme = (await auditLog(`?companyId=${acmeId}&pageSize=200`)).results;
    expect(acme.length).toBeGreaterThan(0);
    for (const e of acme) expect(e.companyId).toBe(acmeId);

    const leadId = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'lead@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    const byLead = (await auditLog(`?actorId=${leadId}&pageSize=200`)).results;
    expect(byLead.length).toBeGreaterThan(0);
    for (const e of byLead) expect(e.actor).toEqual({ id: leadId, email: 'lead@acme.test' });

    expect((await auditLog('?search=UMBRELLA')).results.map((e) => e.targetLabel)).toEqual([
      'Umbrella Health',
      'Umbrella Health',
    ]);
    expect((await auditLog('?search=lead%40acme')).results.length).toBe(byLead.length);

    const from = new Date(Date.now() - 40 * 24 * 3_600_000).toISOString();
    const to = new Date(Date.now() - 30 * 24 * 3_600_000).toISOString();
    const window = (await auditLog(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).results;
    expect(window.map((e) => e.targetLabel).sort()).toEqual(['Umbrella Health', 'Umbrella Health', 'help']);
  });

  it('treats % and _ in the search and action as text', async () => {
    await insertAuditRecord(t.database.db, {
      actorId: null,
      actorEmail: 'system',
      action: 'odd_action.run',
      targetType: 'x',
      targetId: null,
      targetLabel: '100%_sure',
    });
    expect((await auditLog('?search=100%25_')).results.map((e) => e.targetLabel)).toEqual(['100%_sure']);
    expect((await auditLog('?search=%25')).results.map((e) => e.targetLabel)).toEqual(['100%_sure']);
    expect((await auditLog('?action=odd_action')).results.map((e) => e.action)).toEqual(['odd_action.run']);
    expect((await auditLog('?action=odd-action')).total).toBe(0);
  });

  it.each([
    ['page=0', 'page'],
    ['pageSize=201', 'pageSize'],
    ['pageSize=x', 'pageSize'],
    ['from=yesterday', 'from'],
    ['to=2026-13-01', 'to'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await t.api({ method: 'GET', url: `/api/v1/audit-log?${query}`, cookie: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it.each([
    ['consultant@demo.test', 403],
    ['lead@acme.test', 403],
    ['member@acme.test', 403],
  ])('is for staff admins only: %s gets %i', async (email, status) => {
    expect(
      (await t.api({ method: 'GET', url: '/api/v1/audit-log', cookie: await t.cookieFor(email) })).statusCode,
    ).toBe(status);
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/api/v1/audit-log' })).statusCode).toBe(401);
  });
});

describe('changes made elsewhere are recorded', () => {
  it('password policy: before and after', async () => {
    const lead = await t.cookieFor('lead@acme.test');
    const res = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${acmeId}/password-policy`,
      cookie: lead,
      payload: { minimumLength: 18, rotationInDays: 90 },
    });
    expect(res.statusCode).toBe(200);
    const entry = await latest('company.passwordPolicy.update');
    expect(entry).toMatchObject({
      actor: { email: 'lead@acme.test' },
      targetType: 'company',
      targetId: acmeId,
      targetLabel: 'Acme Corp',
      companyId: acmeId,
      before: { minimumLength: 14, rotationInDays: 0 },
      after: { minimumLength: 18, rotationInDays: 90 },
      requestId: res.headers['x-request-id'],
    });
    // a refused save records nothing
    const total = (await auditLog('?action=company.passwordPolicy.update')).total;
    expect(
      (
        await t.api({
          method: 'POST',
          url: `/api/v1/companies/${acmeId}/password-policy`,
          cookie: lead,
          payload: { minimumLength: 2 },
        })
      ).statusCode,
    ).toBe(400);
    expect((await auditLog('?action=company.passwordPolicy.update')).total).toBe(total);
  });

  it('identity provider: settings with the certificate fingerprint, never the certificate', async () => {
    const idp = createTestIdentityProvider('globex-idp');
    const url = `/api/v1/companies/${globexId}/identity-provider`;
    const put = await t.api({
      method: 'PUT',
      url,
      cookie: admin,
      payload: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.certificate },
    });
    expect(put.statusCode).toBe(200);
    const fingerprint = new X509Certificate(idp.certificate).fingerprint256;
    const saved = await latest('company.identityProvider.update');
    expect(saved).toMatchObject({
      companyId: globexId,
      before: null,
      after: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, sloUrl: null, certificateFingerprint: fingerprint },
    });
    const body = idp.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    expect(JSON.stringify(saved)).not.toContain(body.slice(0, 40));

    expect((await t.api({ method: 'DELETE', url, cookie: admin })).statusCode).toBe(204);
    const removed = await latest('company.identityProvider.delete');
    expect(removed).toMatchObject({
      companyId: globexId,
      before: { entityId: idp.entityId, certificateFingerprint: fingerprint },
      after: null,
    });
    expect(JSON.stringify(removed)).not.toContain(body.slice(0, 40));
  });

  it('system settings: created, updated and deleted, with the value before and after', async () => {
    const created = await t.api({
      method: 'POST',
      url: '/api/v1/system-settings',
      cookie: admin,
      payload: { key: 'bell', status: 'inactive', value: 'Draft' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(await latest('systemSetting.create')).toMatchObject({
      targetType: 'systemSetting',
      targetId: id,
      targetLabel: 'bell',
      before: null,
      after: { value: 'Draft', status: 'inactive' },
    });

    await t.api({
      method: 'PUT',
      url: `/api/v1/system-settings/${id}`,
      cookie: admin,
      payload: { key: 'bell', status: 'active', value: 'Live' },
    });
    expect(await latest('systemSetting.update')).toMatchObject({
      targetId: id,
      before: { value: 'Draft', status: 'inactive', version: 1 },
      after: { value: 'Live', status: 'active', version: 2 },
    });

    expect((await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${id}`, cookie: admin })).statusCode).toBe(
      204,
    );
    expect(await latest('systemSetting.delete')).toMatchObject({
      targetId: id,
      before: { value: 'Live' },
      after: null,
    });
    const deletes = (await auditLog('?action=systemSetting.delete')).total;
    expect((await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${id}`, cookie: admin })).statusCode).toBe(
      404,
    );
    expect((await auditLog('?action=systemSetting.delete')).total).toBe(deletes);
  });

  it('feature flags: written and deleted', async () => {
    const put = await t.api({
      method: 'PUT',
      url: '/api/v1/feature-flags/audit-demo',
      cookie: admin,
      payload: { defaultValue: true },
    });
    expect(put.statusCode).toBe(201);
    expect(await latest('featureFlag.update')).toMatchObject({
      targetType: 'featureFlag',
      targetId: 'audit-demo',
      before: null,
      after: { defaultValue: true, version: 1 },
    });
    await t.api({
      method: 'PUT',
      url: '/api/v1/feature-flags/audit-demo',
      cookie: admin,
      payload: { defaultValue: false },
    });
    expect(await latest('featureFlag.update')).toMatchObject({
      before: { defaultValue: true, version: 1 },
      after: { defaultValue: false, version: 2 },
    });
    expect((await t.api({ method: 'DELETE', url: '/api/v1/feature-flags/audit-demo', cookie: admin })).statusCode).toBe(
      204,
    );
    expect(await latest('featureFlag.delete')).toMatchObject({
      targetId: 'audit-demo',
      before: { defaultValue: false },
      after: null,
    });
  });
});
