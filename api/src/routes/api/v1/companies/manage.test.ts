import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { company as companySchema } from '@portal/shared/core/companies/results';
import { auditEntrySchema, type AuditEntry } from '@portal/shared/core/settings';
import { findCompanyById } from '../../../../db/companies';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';

let t: TestApp;
let acmeId: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  admin = await t.cookieFor('admin@demo.test');
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

interface Part {
  name: string;
  value?: string;
  file?: { filename: string; contentType: string; data: Buffer };
}

function multipart(parts: Part[]) {
  const boundary = `----portal-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (part.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.contentType}\r\n\r\n`,
        ),
        part.file.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`,
        ),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function auditEntries(action: string): Promise<AuditEntry[]> {
  const res = await t.api({
    method: 'GET',
    url: `/api/v1/audit-log?action=${encodeURIComponent(action)}&pageSize=200`,
    cookie: admin,
  });
  expect(res.statusCode).toBe(200);
  return (res.json().results as unknown[]).map((e) => auditEntrySchema.parse(e)).filter((e) => e.action === action);
}

const imagesDir = () => path.join(t.config.dataDir, 'images');
const storedImages = () =>
  fs.existsSync(imagesDir()) ? fs.readdirSync(imagesDir()).filter((f) => !f.startsWith('.')) : [];

describe('POST /api/v1/companies', () => {
  const create = async (payload: unknown, cookie = admin) =>
    t.api({ method: 'POST', url: '/api/v1/companies', cookie, payload: payload as object });

  it('creates a company with every module on by default, answers it with 201 and records it', async () => {
    const res = await create({ name: '  Cyberdyne Systems  ' });
    expect(res.statusCode).toBe(201);
    const company = companySchema.parse(res.json());
    expect(company).toMatchObject({ name: 'Cyberdyne Systems', logo: null });
    expect(company.modulesAccess).toEqual({ risks: true, projects: true, requests: true, reports: true, assets: true });
    const list = await t.api({ method: 'GET', url: '/api/v1/companies?search=cyberdyne', cookie: admin });
    expect(list.json().results.map((c: { id: string }) => c.id)).toEqual([company.id]);
    const [entry] = await auditEntries('company.create');
    expect(entry).toMatchObject({
      actor: { email: 'admin@demo.test' },
      targetType: 'company',
      targetId: company.id,
      targetLabel: 'Cyberdyne Systems',
      companyId: company.id,
      before: null,
      after: { name: 'Cyberdyne Systems' },
    });
  });

  it('takes the modules given', async () => {
    const modulesAccess = { risks: false, projects: true, requests: false, reports: true, assets: true };
    const res = await create({ name: 'Oscorp', modulesAccess });
    expect(res.statusCode).toBe(201);
    expect(res.json().modulesAccess).toEqual(modulesAccess);
  });

  it('refuses a name already taken, whatever its case, with 409 naming name, and stores nothing', async () => {
    const before = await t.database.db.selectFrom('companies').select('id').execute();
    const res = await create({ name: 'acme CORP' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'company_name_taken',
      details: [{ field: 'name', message: expect.any(String) }],
    });
    expect(await t.database.db.selectFrom('companies').select('id').execute()).toHaveLength(before.length);
  });

  it.each([
    [{}, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(121) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'Partial Modules', modulesAccess: { risks: true } }, 'modulesAccess.projects'],
    [
      {
        name: 'Bad Modules',
        modulesAccess: { risks: 'yes', projects: true, requests: true, reports: true, assets: true },
      },
      'modulesAccess.risks',
    ],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(res.json().details).toContainEqual(expect.objectContaining({ field }));
  });

  it.each([
    ['consultant@demo.test', 403],
    ['lead@acme.test', 403],
    ['member@acme.test', 403],
  ])('is for staff admins only: %s gets %i', async (email, status) => {
    expect((await create({ name: `Not by ${email}` }, await t.cookieFor(email))).statusCode).toBe(status);
  });

  it('answers 401 without a session', async () => {
    expect(
      (await t.api({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Anonymous Co' } })).statusCode,
    ).toBe(401);
  });
});

describe('PATCH /api/v1/companies/:id', () => {
  let companyIdUnderTest: string;

  beforeAll(async () => {
    const res = await t.api({
      method: 'POST',
      url: '/api/v1/companies',
      cookie: admin,
      payload: { name: 'Rename Me Inc' },
    });
    companyIdUnderTest = res.json().id;
  });

  const patch = async (id: string, body: Record<string, unknown>, cookie = admin) =>
    t.api({ method: 'PATCH', url: `/api/v1/companies/${id}`, cookie, payload: body });
  const patchForm = async (id: string, parts: Part[], cookie = admin) =>
    t.api({ method: 'PATCH', url: `/api/v1/companies/${id}`, cookie, ...multipart(parts) });

  it('renames with JSON and records the names before and after', async () => {
    const res = await patch(companyIdUnderTest, { name: 'Renamed Inc' });
    expect(res.statusCode).toBe(200);
    expect(companySchema.parse(res.json())).toMatchObject({ id: companyIdUnderTest, name: 'Renamed Inc' });
    const entry = (await auditEntries('company.update')).find((e) => e.targetId === companyIdUnderTest);
    expect(entry).toMatchObject({
      companyId: companyIdUnderTest,
      before: { name: 'Rename Me Inc' },
      after: { name: 'Renamed Inc' },
    });
  });

  it('lets the company admin set the name and logo in one multipart request, replaces the old logo and serves it', async () => {
    const lead = await t.cookieFor('lead@acme.test');
    const first = await patchForm(
      acmeId,
      [{ name: 'logo', file: { filename: 'logo.png', contentType: 'image/png', data: PNG } }],
      lead,
    );
    expect(first.statusCode).toBe(200);
    const firstLogo = (await findCompanyById(t.database.db, acmeId))!.logo!;
    expect(first.json().logo).toMatch(new RegExp(`^/api/v1/companies/${acmeId}/logo\\?v=`));

    const second = await patchForm(
      acmeId,
      [
        { name: 'name', value: 'Acme Corp' },
        // named .png, sent as PNG, but JPEG bytes: the bytes decide
        { name: 'logo', file: { filename: 'logo.png', contentType: 'image/png', data: JPEG } },
      ],
      lead,
    );
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ name: 'Acme Corp' });
    const secondLogo = (await findCompanyById(t.database.db, acmeId))!.logo!;
    expect(secondLogo).toMatch(/\.jpg$/);
    expect(storedImages()).toContain(secondLogo);
    expect(storedImages()).not.toContain(firstLogo);

    const logo = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${acmeId}/logo`,
      cookie: await t.cookieFor('member@acme.test'),
    });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/jpeg');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(JPEG)).toBe(true);
    const outsider = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${acmeId}/logo`,
      cookie: await t.cookieFor('client@globex.test'),
    });
    expect(outsider.statusCode).toBe(404);

    const entry = (await auditEntries('company.update')).find(
      (e) => e.targetId === acmeId && (e.after as { logo?: string }).logo === secondLogo,
    );
    // the name did not change, so only the logo is recorded
    expect(entry).toMatchObject({ before: { logo: firstLogo }, after: { logo: secondLogo } });
  });

  it.each([
    [
      'a 20 MB image',
      { filename: 'huge.png', contentType: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(20 * 1024 * 1024)]) },
      'logo must be at most 2 MB',
    ],
    [
      'a program renamed .png',
      { filename: 'logo.png', contentType: 'image/png', data: EXE },
      'logo must be a PNG, JPEG, GIF or WebP image',
    ],
    ['an empty file', { filename: 'logo.png', contentType: 'image/png', data: Buffer.alloc(0) }, 'logo is empty'],
  ])('refuses %s with 400 naming logo and changes nothing', async (_label, file, message) => {
    const before = await findCompanyById(t.database.db, acmeId);
    const images = storedImages();
    const res = await patchForm(acmeId, [
      { name: 'name', value: 'Changed Anyway' },
      { name: 'logo', file },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'logo', message }] });
    expect(await findCompanyById(t.database.db, acmeId)).toEqual(before);
    expect(storedImages().sort()).toEqual(images.sort());
  });

  it('refuses a taken name with 409 naming name and keeps the logo it was sent out of storage', async () => {
    const images = storedImages();
    const res = await patchForm(companyIdUnderTest, [
      { name: 'name', value: 'GLOBEX INC' },
      { name: 'logo', file: { filename: 'l.png', contentType: 'image/png', data: PNG } },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'company_name_taken', details: [{ field: 'name' }] });
    expect((await findCompanyById(t.database.db, companyIdUnderTest))!.name).toBe('Renamed Inc');
    expect(storedImages().sort()).toEqual(images.sort());
  });

  it('accepts its own name in another case', async () => {
    const res = await patch(companyIdUnderTest, { name: 'RENAMED INC' });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('RENAMED INC');
  });

  it.each([
    [{ name: '' }, 'name'],
    [{}, 'name'],
    [{ name: 'y'.repeat(121) }, 'name'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const res = await patch(companyIdUnderTest, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual(expect.objectContaining({ field }));
  });

  it('refuses a file field other than logo', async () => {
    const res = await patchForm(companyIdUnderTest, [
      { name: 'avatar', file: { filename: 'a.png', contentType: 'image/png', data: PNG } },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'avatar' })]);
  });

  it.each([
    ['member@acme.test', 403],
    ['auditor@demo.test', 404],
    ['client@globex.test', 404],
  ])('refuses %s with %i', async (email, status) => {
    const res = await patch(acmeId, { name: 'Hijacked' }, await t.cookieFor(email));
    expect(res.statusCode).toBe(status);
    expect((await findCompanyById(t.database.db, acmeId))!.name).toBe('Acme Corp');
  });
});

describe('DELETE /api/v1/companies/:id/logo', () => {
  it('removes the logo and its file, records it, and is idempotent', async () => {
    const lead = await t.cookieFor('lead@acme.test');
    await t.api({
      method: 'PATCH',
      url: `/api/v1/companies/${acmeId}`,
      cookie: lead,
      ...multipart([{ name: 'logo', file: { filename: 'logo.png', contentType: 'image/png', data: PNG } }]),
    });
    const key = (await findCompanyById(t.database.db, acmeId))!.logo!;
    expect(storedImages()).toContain(key);

    expect(
      (
        await t.api({
          method: 'DELETE',
          url: `/api/v1/companies/${acmeId}/logo`,
          cookie: await t.cookieFor('member@acme.test'),
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'DELETE', url: `/api/v1/companies/${acmeId}/logo`, cookie: lead })).statusCode).toBe(
      204,
    );
    expect((await findCompanyById(t.database.db, acmeId))!.logo).toBeNull();
    expect(storedImages()).not.toContain(key);
    expect((await t.api({ method: 'GET', url: `/api/v1/companies/${acmeId}/logo`, cookie: lead })).statusCode).toBe(
      404,
    );
    expect((await t.api({ method: 'DELETE', url: `/api/v1/companies/${acmeId}/logo`, cookie: lead })).statusCode).toBe(
      204,
    );

    const entries = (await auditEntries('company.logo.delete')).filter((e) => e.targetId === acmeId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { email: 'lead@acme.test' },
      before: { logo: key },
      after: { logo: null },
    });
  });
});

describe('PATCH /api/v1/companies/:id/modules-access', () => {
  const url = () => `/api/v1/companies/${acmeId}/modules-access`;

  it('turns modules on and off for staff, answers the company and records what changed', async () => {
    const consultant = await t.cookieFor('consultant@demo.test');
    const res = await t.api({
      method: 'PATCH',
      url: url(),
      cookie: consultant,
      payload: { assets: false, risks: true },
    });
    expect(res.statusCode).toBe(200);
    expect(companySchema.parse(res.json()).modulesAccess).toEqual({
      risks: true,
      projects: true,
      requests: true,
      reports: true,
      assets: false,
    });
    const [entry] = (await auditEntries('company.modules.update')).filter((e) => e.targetId === acmeId);
    expect(entry).toMatchObject({
      actor: { email: 'consultant@demo.test' },
      companyId: acmeId,
      before: { assets: true },
      after: { assets: false },
    });
    // the ceiling applies to members at once
    const access = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${acmeId}/access-permissions`,
      cookie: await t.cookieFor('lead@acme.test'),
    });
    expect(access.json().modulesAccess.assets).toBe(false);
    await t.api({ method: 'PATCH', url: url(), cookie: consultant, payload: { assets: true } });
  });

  it.each([
    [{}, '(root)'],
    [{ risks: 'off' }, 'risks'],
    [{ risks: null }, 'risks'],
    [{ billing: true }, 'billing'],
  ])('refuses %j with 400 naming %s and changes nothing', async (payload, field) => {
    const before = await findCompanyById(t.database.db, acmeId);
    const res = await t.api({ method: 'PATCH', url: url(), cookie: admin, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(res.json().details).toContainEqual(expect.objectContaining({ field }));
    expect(await findCompanyById(t.database.db, acmeId)).toEqual(before);
  });

  it.each([
    ['lead@acme.test', 403],
    ['member@acme.test', 403],
    ['client@globex.test', 404],
  ])('refuses %s with %i', async (email, status) => {
    expect(
      (await t.api({ method: 'PATCH', url: url(), cookie: await t.cookieFor(email), payload: { risks: false } }))
        .statusCode,
    ).toBe(status);
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'PATCH', url: url(), payload: { risks: false } })).statusCode).toBe(401);
  });
});
