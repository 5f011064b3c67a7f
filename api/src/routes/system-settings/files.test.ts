import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { auditEntrySchema, systemSettingFileSchema, type SystemSettingFile } from '@portal/shared/core/settings';
import { createTestApp, type TestApp } from '../../test/app';
import { attachmentDisposition, displayFileName, fileContentType } from './files';

let t: TestApp;
let admin: string;
let settingId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin@demo.test');
  const res = await t.api({ method: 'POST', url: '/api/v1/system-settings', cookie: admin, payload: { key: 'help', status: 'inactive', value: 'With files' } });
  settingId = res.json().id;
});
afterAll(() => t.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0x20)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);
const HTML = Buffer.from('<html><script>alert(1)</script></html>');

const filesReply = z.object({ files: z.array(systemSettingFileSchema) });

function multipart(files: { field?: string; filename: string; data: Buffer; contentType?: string }[]) {
  const boundary = `----portal-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const url = (id = settingId) => `/api/v1/system-settings/${id}/files`;
const upload = (files: Parameters<typeof multipart>[0], cookie = admin, id = settingId) =>
  t.api({ method: 'PATCH', url: url(id), cookie, ...multipart(files) });
const storeDir = () => path.join(t.config.dataDir, 'system-files');
const stored = () => (fs.existsSync(storeDir()) ? fs.readdirSync(storeDir()) : []);
const rowCount = async () => Number((await t.database.db.selectFrom('system_setting_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function list(): Promise<SystemSettingFile[]> {
  const res = await t.api({ method: 'GET', url: url(), cookie: admin });
  expect(res.statusCode).toBe(200);
  return filesReply.parse(res.json()).files;
}

describe('PATCH /api/v1/system-settings/:id/files', () => {
  it('stores several files, each under a random key, with its size, sha256 and type by bytes, and answers all of them', async () => {
    const res = await upload([
      { filename: 'runbook.pdf', data: PDF, contentType: 'application/pdf' },
      // claims to be a PDF; its bytes are HTML: served as opaque bytes
      { filename: 'notes.pdf', data: HTML, contentType: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    const { files } = filesReply.parse(res.json());
    expect(files.map((f) => [f.name, f.contentType, f.size])).toEqual([
      ['runbook.pdf', 'application/pdf', PDF.length],
      ['notes.pdf', 'application/octet-stream', HTML.length],
    ]);
    expect(files[0].sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    expect(stored()).toHaveLength(2);
    for (const name of stored()) expect(name).toMatch(/^[0-9a-f-]{36}$/);

    const more = await upload([{ filename: 'diagram.png', data: PNG }]);
    expect(filesReply.parse(more.json()).files.map((f) => f.name)).toEqual(['runbook.pdf', 'notes.pdf', 'diagram.png']);
    expect(await list()).toEqual(filesReply.parse(more.json()).files);

    const entries = (await t.api({ method: 'GET', url: '/api/v1/audit-log?action=systemSetting.files.add', cookie: admin })).json().results.map((e: unknown) => auditEntrySchema.parse(e));
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ targetType: 'systemSetting', targetId: settingId, after: { files: [{ name: 'runbook.pdf' }, { name: 'notes.pdf' }] } });
  });

  it('keeps only a display name: no path, no control characters, at most 200 characters', async () => {
    expect(displayFileName('../../etc/passwd')).toBe('passwd');
    expect(displayFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(displayFileName('evil\u202Efdp.exe')).toBe('evilfdp.exe');
    expect(displayFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(displayFileName('..')).toBe('file');
    expect(displayFileName('x'.repeat(300))).toHaveLength(200);
    const res = await upload([{ filename: '../../../outside.pdf', data: PDF }]);
    expect(res.statusCode).toBe(200);
    expect(filesReply.parse(res.json()).files.at(-1)!.name).toBe('outside.pdf');
    expect(fs.existsSync(path.join(t.config.dataDir, 'outside.pdf'))).toBe(false);
  });

  it.each([
    ['no file', [], 'files'],
    ['an empty file', [{ filename: 'empty.pdf', data: Buffer.alloc(0) }], 'files'],
    ['a file over 10 MB', [{ filename: 'big.bin', data: Buffer.alloc(10 * 1024 * 1024 + 1) }], 'files'],
    ['eleven files', Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.pdf`, data: PDF })), 'files'],
    ['another file field', [{ field: 'attachment', filename: 'a.pdf', data: PDF }], 'attachment'],
  ])('refuses %s with 400 naming %s, storing nothing', async (_label, files, field) => {
    const [rows, bytes] = [await rowCount(), stored()];
    const res = await upload(files);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(await rowCount()).toBe(rows);
    expect(stored().sort()).toEqual(bytes.sort());
  });

  it('answers 404 not_found for a setting that does not exist, storing nothing', async () => {
    const bytes = stored();
    const res = await upload([{ filename: 'a.pdf', data: PDF }], admin, 'no-such-setting');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    expect(stored()).toEqual(bytes);
    expect((await t.api({ method: 'GET', url: url('no-such-setting'), cookie: admin })).statusCode).toBe(404);
  });

  it.each([
    ['consultant@demo.test', 403],
    ['member@acme.test', 403],
  ])('is for staff admins only: %s gets %i', async (email, status) => {
    const cookie = await t.cookieFor(email);
    expect((await upload([{ filename: 'a.pdf', data: PDF }], cookie)).statusCode).toBe(status);
    expect((await t.api({ method: 'GET', url: url(), cookie })).statusCode).toBe(status);
  });

  it('answers 401 without a session', async () => {
    expect((await t.api({ method: 'PATCH', url: url(), ...multipart([{ filename: 'a.pdf', data: PDF }]) })).statusCode).toBe(401);
  });
});

describe('GET and DELETE /api/v1/system-settings/:id/files/:fileId', () => {
  it('serves a file as an attachment that the browser will neither sniff nor run', async () => {
    const files = await list();
    const pdf = files.find((f) => f.name === 'runbook.pdf')!;
    const res = await t.api({ method: 'GET', url: `${url()}/${pdf.id}`, cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="runbook.pdf"; filename*=UTF-8''runbook.pdf`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    const html = files.find((f) => f.name === 'notes.pdf')!;
    const served = await t.api({ method: 'GET', url: `${url()}/${html.id}`, cookie: admin });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.body).toBe(HTML.toString());
    expect((await t.api({ method: 'GET', url: `${url()}/${pdf.id}`, cookie: await t.cookieFor('consultant@demo.test') })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: `${url()}/nope`, cookie: admin })).statusCode).toBe(404);
  });

  it('names a file for download in RFC 5987 form, with an ASCII fallback', () => {
    expect(attachmentDisposition('Résumé "final" (1).pdf')).toBe(
      `attachment; filename="R_sum_ _final_ (1).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%20%281%29.pdf`,
    );
    expect(fileContentType(PDF)).toBe('application/pdf');
    expect(fileContentType(PNG)).toBe('image/png');
    expect(fileContentType(Buffer.from('GIF89a....'))).toBe('application/octet-stream');
  });

  it('deletes the row and the bytes, records it, and answers 404 the second time', async () => {
    const [first] = await list();
    const bytes = stored().length;
    expect((await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: await t.cookieFor('member@acme.test') })).statusCode).toBe(403);
    expect((await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: admin })).statusCode).toBe(204);
    expect((await list()).map((f) => f.id)).not.toContain(first.id);
    expect(stored()).toHaveLength(bytes - 1);
    expect((await t.api({ method: 'GET', url: `${url()}/${first.id}`, cookie: admin })).statusCode).toBe(404);
    const again = await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('not_found');
    const entry = auditEntrySchema.parse(
      (await t.api({ method: 'GET', url: '/api/v1/audit-log?action=systemSetting.files.delete', cookie: admin })).json().results[0],
    );
    expect(entry).toMatchObject({ targetId: settingId, before: { id: first.id, name: first.name, sha256: first.sha256 }, after: null });
  });

  it("does not serve another setting's file", async () => {
    const other = (await t.api({ method: 'POST', url: '/api/v1/system-settings', cookie: admin, payload: { key: 'bell', status: 'inactive', value: 'x' } })).json().id;
    const [file] = await list();
    expect((await t.api({ method: 'GET', url: `${url(other)}/${file.id}`, cookie: admin })).statusCode).toBe(404);
    expect((await t.api({ method: 'DELETE', url: `${url(other)}/${file.id}`, cookie: admin })).statusCode).toBe(404);
  });

  it('removes the bytes of every attached file when the setting itself is deleted', async () => {
    const setting = (await t.api({ method: 'POST', url: '/api/v1/system-settings', cookie: admin, payload: { key: 'help', status: 'inactive', value: 'Doomed' } })).json().id;
    const before = stored().length;
    expect((await upload([{ filename: 'a.pdf', data: PDF }, { filename: 'b.png', data: PNG }], admin, setting)).statusCode).toBe(200);
    expect(stored()).toHaveLength(before + 2);
    expect((await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${setting}`, cookie: admin })).statusCode).toBe(204);
    expect(stored()).toHaveLength(before);
    expect(await t.database.db.selectFrom('system_setting_files').select('id').where('message_id', '=', setting).execute()).toEqual([]);
  });
});
