import { randomUUID } from 'node:crypto';
import type { PracticeDetail, PracticeSummary } from '@portal/shared/core/practices';
import { practiceSchema } from '@portal/shared/core/settings';
import * as practicesDb from '../../../../db/practices';
import { insertPractice } from '../../../../db/practices';
import { createTestApp, type TestApp } from '../../../../test/app';
import { auditRows, cookiesFor } from '../../../../test/project-fixtures';

let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  cookies = await cookiesFor(t, ['admin@demo.test', 'consultant@demo.test', 'auditor@demo.test', 'lead@acme.test']);
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const auditor = () => cookies['auditor@demo.test'];
const client = () => cookies['lead@acme.test'];

const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

async function list(query = '', cookie = consultant()): Promise<PracticeSummary[]> {
  const res = await t.api({ method: 'GET', url: `/api/v1/practices${query}`, cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json().results as PracticeSummary[];
}

async function create(payload: Record<string, unknown>, cookie = consultant()): Promise<PracticeSummary> {
  const res = await t.api({ method: 'POST', url: '/api/v1/practices', cookie, payload });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as PracticeSummary;
}

const patch = (id: string, payload: Record<string, unknown>, cookie = consultant()) =>
  t.api({ method: 'PATCH', url: `/api/v1/practices/${id}`, cookie, payload });

describe('GET /api/v1/practices', () => {
  it('lists practices by name with their template, staff and project counts, for every staff user (auditors too)', async () => {
    const results = await list('', auditor());
    const soc2 = results.find((p) => p.name === 'SOC 2 Readiness');
    // seeded: a published template and a draft, three staff, the SOC 2 projects
    expect(soc2).toMatchObject({ status: 'active', templateCount: 2, publishedTemplateCount: 1, staffCount: 3 });
    expect(soc2!.projectCount).toBeGreaterThan(0);
    expect(soc2!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const names = results.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    // the staff-user settings page reads these fields from the same list
    for (const p of results) practiceSchema.parse(p);
  });

  it('filters by status and searches name and description, ignoring case', async () => {
    const retired = await insertPractice(t.database.db, {
      name: unique('Filter Retired'),
      description: 'Old NIST work',
      status: 'retired',
    });
    const active = await insertPractice(t.database.db, {
      name: unique('Filter Active'),
      description: 'Current NIST work',
    });
    expect((await list('?status=retired')).map((p) => p.id)).toContain(retired);
    expect((await list('?status=retired')).map((p) => p.id)).not.toContain(active);
    expect((await list('?status=active')).map((p) => p.id)).not.toContain(retired);
    expect((await list('?search=nist%20WORK')).map((p) => p.id).sort()).toEqual([active, retired].sort());
    expect((await list('?search=nist&status=active')).map((p) => p.id)).toEqual([active]);
  });

  it('refuses a bad status (400 naming status) and client users (403)', async () => {
    const res = await t.api({ method: 'GET', url: '/api/v1/practices?status=gone', cookie: consultant() });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'status' }] },
    });
    expect((await t.api({ method: 'GET', url: '/api/v1/practices', cookie: client() })).statusCode).toBe(403);
  });
});

describe('POST /api/v1/practices', () => {
  it('creates an active practice (201), answers its summary and records it', async () => {
    const name = unique('ISO 27001 Certification');
    const practice = await create({ name: ` ${name} `, description: 'Stage 1 and stage 2 audits' });
    expect(practice).toMatchObject({
      name,
      description: 'Stage 1 and stage 2 audits',
      status: 'active',
      templateCount: 0,
      publishedTemplateCount: 0,
      staffCount: 0,
      projectCount: 0,
    });
    const [entry] = await auditRows(t, 'practice.create', practice.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      target_type: 'practice',
      after: { name, status: 'active' },
    });
  });

  it('refuses a name another practice has, in any case (409 practice_name_taken naming name), and stores nothing', async () => {
    const name = unique('HITRUST');
    await create({ name });
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/practices',
      cookie: consultant(),
      payload: { name: name.toUpperCase() },
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 409,
      body: { code: 'practice_name_taken', details: [{ field: 'name' }] },
    });
    expect((await list(`?search=${encodeURIComponent(name)}`)).length).toBe(1);
  });

  it('lets the database refuse a name differing only in case, when a concurrent writer takes it after the check (409 practice_name_taken on create and rename)', async () => {
    const name = unique('Raced');
    const other = await create({ name: unique('Renamed later') });
    await expect(insertPractice(t.database.db, { name: name.toLowerCase() })).resolves.toBeDefined();
    await expect(insertPractice(t.database.db, { name: name.toUpperCase() })).rejects.toMatchObject({
      code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/),
    });
    // The check misses the name, as it would had the other writer committed just after it.
    const spy = jest.spyOn(practicesDb, 'practiceNameTaken').mockResolvedValue(false);
    try {
      const created = await t.api({
        method: 'POST',
        url: '/api/v1/practices',
        cookie: consultant(),
        payload: { name: name.toUpperCase() },
      });
      expect({ status: created.statusCode, body: created.json() }).toMatchObject({
        status: 409,
        body: { code: 'practice_name_taken', details: [{ field: 'name' }] },
      });
      const renamed = await patch(other.id, { name });
      expect({ status: renamed.statusCode, body: renamed.json() }).toMatchObject({
        status: 409,
        body: { code: 'practice_name_taken', details: [{ field: 'name' }] },
      });
    } finally {
      spy.mockRestore();
    }
    expect((await list(`?search=${encodeURIComponent(name)}&status=all`)).map((p) => p.name)).toEqual([
      name.toLowerCase(),
    ]);
  });

  it('refuses a missing name (400) and callers without editPractices: auditors and clients (403)', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/practices',
      cookie: consultant(),
      payload: { description: 'no name' },
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [{ field: 'name' }] },
    });
    for (const cookie of [auditor(), client()]) {
      const refused = await t.api({
        method: 'POST',
        url: '/api/v1/practices',
        cookie,
        payload: { name: unique('Nope') },
      });
      expect({ status: refused.statusCode, body: refused.json() }).toMatchObject({
        status: 403,
        body: { code: 'forbidden' },
      });
    }
  });
});

describe('GET /api/v1/practices/:id', () => {
  it('answers the practice with its assigned staff, by name', async () => {
    const soc2 = (await list()).find((p) => p.name === 'SOC 2 Readiness')!;
    const res = await t.api({ method: 'GET', url: `/api/v1/practices/${soc2.id}`, cookie: auditor() });
    expect(res.statusCode).toBe(200);
    const detail = res.json() as PracticeDetail;
    expect(detail).toMatchObject({ id: soc2.id, name: 'SOC 2 Readiness', staffCount: 3 });
    expect(detail.staff.map((s) => s.email)).toEqual([
      'admin@demo.test',
      'consultant@demo.test',
      'omar.haddad@demo.test',
    ]);
    expect(detail.staff[0]).toEqual({
      id: expect.any(String),
      firstName: 'Alice',
      lastName: 'Morgan',
      email: 'admin@demo.test',
    });
  });

  it('answers 404 practice_not_found for an unknown practice', async () => {
    const res = await t.api({ method: 'GET', url: `/api/v1/practices/${randomUUID()}`, cookie: consultant() });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 404,
      body: { code: 'practice_not_found' },
    });
  });
});

describe('PATCH /api/v1/practices/:id', () => {
  it('renames and describes a practice, recording only what changed', async () => {
    const practice = await create({ name: unique('Renamed'), description: 'Before' });
    const name = unique('Renamed after');
    const res = await patch(practice.id, { name, description: 'After' });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 200,
      body: { id: practice.id, name, description: 'After', status: 'active' },
    });
    const [entry] = await auditRows(t, 'practice.update', practice.id);
    expect(entry).toMatchObject({
      before: { name: practice.name, description: 'Before' },
      after: { name, description: 'After' },
    });
    // the same values again change nothing and record nothing
    expect((await patch(practice.id, { name, description: 'After' })).statusCode).toBe(200);
    expect(await auditRows(t, 'practice.update', practice.id)).toHaveLength(1);
  });

  it('retires a practice (hidden from the active list) and restores it, recording each', async () => {
    const practice = await create({ name: unique('Retire me') });
    const retired = await patch(practice.id, { status: 'retired' });
    expect({ status: retired.statusCode, body: retired.json() }).toMatchObject({
      status: 200,
      body: { status: 'retired' },
    });
    expect((await list('?status=active')).map((p) => p.id)).not.toContain(practice.id);
    expect(await auditRows(t, 'practice.retire', practice.id)).toEqual([
      expect.objectContaining({ before: { status: 'active' }, after: { status: 'retired' } }),
    ]);
    const restored = await patch(practice.id, { status: 'active' });
    expect(restored.json()).toMatchObject({ status: 'active' });
    expect(await auditRows(t, 'practice.restore', practice.id)).toHaveLength(1);
  });

  it('refuses a name another practice has (409), an unknown practice (404), a bad status (400) and auditors (403)', async () => {
    const practice = await create({ name: unique('Patch target') });
    const taken = await patch(practice.id, { name: 'pci dss assessment' });
    expect({ status: taken.statusCode, body: taken.json() }).toMatchObject({
      status: 409,
      body: { code: 'practice_name_taken', details: [{ field: 'name' }] },
    });
    const missing = await patch(randomUUID(), { name: unique('Ghost') });
    expect({ status: missing.statusCode, body: missing.json() }).toMatchObject({
      status: 404,
      body: { code: 'practice_not_found' },
    });
    const bad = await patch(practice.id, { status: 'deleted' });
    expect({ status: bad.statusCode, body: bad.json() }).toMatchObject({
      status: 400,
      body: { details: [{ field: 'status' }] },
    });
    expect((await patch(practice.id, { name: unique('Auditor') }, auditor())).statusCode).toBe(403);
  });
});
