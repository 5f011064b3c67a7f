import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { auditEntrySchema, systemSettingFileSchema, type SystemSettingFile } from '@portal/shared/core/settings';
import type { SignedUrl } from '@portal/shared/core/files';
import type { LocalDiskStorage } from '../../../../lib/storage';
import { createTestApp, type TestApp } from '../../../../test/app';
import { multipart, type FilePart } from '../../../../test/multipart';

let t: TestApp;
let admin: string;
let settingId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.cookieFor('admin@demo.test');
  const res = await t.api({
    method: 'POST',
    url: '/api/v1/system-settings',
    cookie: admin,
    payload: { key: 'help', status: 'inactive', value: 'With files' },
  });
  settingId = res.json().id;
});
afterAll(() => t.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0x20)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);
const HTML = Buffer.from('<html><script>alert(1)</script></html>');

const filesReply = z.object({ files: z.array(systemSettingFileSchema) });

const url = (id = settingId) => `/api/v1/system-settings/${id}/files`;
const upload = (files: FilePart[], cookie = admin, id = settingId) =>
  t.api({ method: 'PATCH', url: url(id), cookie, ...multipart([], files) });
const storage = () => t.app.storage as LocalDiskStorage;
const stored = () => storage().keys();
const staged = () => storage().stagedNames();
const rowCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('system_setting_files')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Through the one way files are served: a signed URL, then its content. */
async function download(fileId: string, cookie = admin) {
  const signed = await t.api({ method: 'GET', url: `/api/v1/files/${fileId}/signed-url`, cookie });
  if (signed.statusCode !== 200) return signed;
  return t.api({ method: 'GET', url: (signed.json() as SignedUrl).url, cookie });
}

async function list(): Promise<SystemSettingFile[]> {
  const res = await t.api({ method: 'GET', url: url(), cookie: admin });
  expect(res.statusCode).toBe(200);
  return filesReply.parse(res.json()).files;
}

describe('PATCH /api/v1/system-settings/:id/files', () => {
  it('stores several files, each under a random key, with its size, sha256 and type by bytes, and answers all of them', async () => {
    const before = await stored();
    const res = await upload([
      { filename: 'runbook.pdf', data: PDF, contentType: 'application/pdf' },
      // an HTML page under its own name: stored as text/html, only ever served as a sandboxed attachment
      { filename: 'notes.html', data: HTML, contentType: 'text/html' },
    ]);
    expect(res.statusCode).toBe(200);
    const { files } = filesReply.parse(res.json());
    expect(files.map((f) => [f.name, f.contentType, f.size])).toEqual([
      ['runbook.pdf', 'application/pdf', PDF.length],
      ['notes.html', 'text/html', HTML.length],
    ]);
    expect(files[0].sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    const added = (await stored()).filter((k) => !before.includes(k));
    expect(added).toHaveLength(2);
    for (const name of added) expect(name).toMatch(/^[0-9a-f-]{36}$/);
    expect(await staged()).toEqual([]);

    const more = await upload([{ filename: 'diagram.png', data: PNG }]);
    expect(filesReply.parse(more.json()).files.map((f) => f.name)).toEqual([
      'runbook.pdf',
      'notes.html',
      'diagram.png',
    ]);
    expect(await list()).toEqual(filesReply.parse(more.json()).files);

    const entries = (
      await t.api({ method: 'GET', url: '/api/v1/audit-log?action=systemSetting.files.add', cookie: admin })
    )
      .json()
      .results.map((e: unknown) => auditEntrySchema.parse(e));
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      targetType: 'systemSetting',
      targetId: settingId,
      after: { files: [{ name: 'runbook.pdf' }, { name: 'notes.html' }] },
    });
  });

  it('keeps only a display name: a path-traversal name is stored as its last segment, never used as a path', async () => {
    const res = await upload([{ filename: '../../../outside.pdf', data: PDF }]);
    expect(res.statusCode).toBe(200);
    expect(filesReply.parse(res.json()).files.at(-1)!.name).toBe('outside.pdf');
    expect(fs.existsSync(path.join(t.config.dataDir, 'outside.pdf'))).toBe(false);
    expect(fs.existsSync(path.join(storage().root, 'outside.pdf'))).toBe(false);
  });

  it.each([
    ['no file', [], 'files'],
    ['an empty file', [{ filename: 'empty.pdf', data: Buffer.alloc(0) }], 'files'],
    ['a file over 10 MB', [{ filename: 'big.bin', data: Buffer.alloc(10 * 1024 * 1024 + 1) }], 'files'],
    ['eleven files', Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.pdf`, data: PDF })), 'files'],
    ['another file field', [{ field: 'attachment', filename: 'a.pdf', data: PDF }], 'attachment'],
  ])('refuses %s with 400 naming %s, storing nothing', async (_label, files, field) => {
    const [rows, bytes] = [await rowCount(), await stored()];
    const res = await upload(files);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(await rowCount()).toBe(rows);
    expect((await stored()).sort()).toEqual(bytes.sort());
    expect(await staged()).toEqual([]);
  });

  it('refuses a file whose bytes do not match its name with 415, keeping none of the files sent with it', async () => {
    const [rows, bytes] = [await rowCount(), await stored()];
    const res = await upload([
      { filename: 'fine.pdf', data: PDF },
      { filename: 'notes.pdf', data: HTML, contentType: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      code: 'unsupported_file_type',
      details: [{ field: 'files', message: 'notes.pdf is not a PDF' }],
    });
    expect(await rowCount()).toBe(rows);
    expect((await stored()).sort()).toEqual(bytes.sort());
    expect(await staged()).toEqual([]);
  });

  it('names the size limit: at most 10 MB each', async () => {
    const res = await upload([{ filename: 'big.bin', data: Buffer.alloc(10 * 1024 * 1024 + 1) }]);
    expect(res.json().details).toEqual([{ field: 'files', message: 'files must be at most 10 MB' }]);
  });

  it('answers 404 not_found for a setting that does not exist, storing nothing', async () => {
    const bytes = await stored();
    const res = await upload([{ filename: 'a.pdf', data: PDF }], admin, 'no-such-setting');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    expect(await stored()).toEqual(bytes);
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
    expect(
      (await t.api({ method: 'PATCH', url: url(), ...multipart([], [{ filename: 'a.pdf', data: PDF }]) })).statusCode,
    ).toBe(401);
  });
});

describe('downloading and deleting system-setting files', () => {
  it('serves a file to staff admins through a signed URL only, as an attachment the browser will neither sniff nor run', async () => {
    const files = await list();
    const pdf = files.find((f) => f.name === 'runbook.pdf')!;
    const res = await download(pdf.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="runbook.pdf"; filename*=UTF-8''runbook.pdf`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    const html = files.find((f) => f.name === 'notes.html')!;
    const served = await download(html.id);
    expect(served.headers['content-type']).toBe('text/html');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.body).toBe(HTML.toString());
    // the old route is gone: downloads go only through signed URLs
    expect((await t.api({ method: 'GET', url: `${url()}/${pdf.id}`, cookie: admin })).statusCode).toBe(404);
    for (const email of ['consultant@demo.test', 'member@acme.test']) {
      const other = await download(pdf.id, await t.cookieFor(email));
      expect([other.statusCode, other.json().code]).toEqual([404, 'file_not_found']);
    }
    expect((await download('nope')).statusCode).toBe(404);
  });

  it('deletes the row and the bytes, records it, and answers 404 the second time', async () => {
    const [first] = await list();
    const bytes = (await stored()).length;
    expect(
      (await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: await t.cookieFor('member@acme.test') }))
        .statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: admin })).statusCode).toBe(204);
    expect((await list()).map((f) => f.id)).not.toContain(first.id);
    expect(await stored()).toHaveLength(bytes - 1);
    expect((await download(first.id)).statusCode).toBe(404);
    const again = await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('not_found');
    const entry = auditEntrySchema.parse(
      (await t.api({ method: 'GET', url: '/api/v1/audit-log?action=systemSetting.files.delete', cookie: admin })).json()
        .results[0],
    );
    expect(entry).toMatchObject({
      targetId: settingId,
      before: { id: first.id, name: first.name, sha256: first.sha256 },
      after: null,
    });
  });

  it('answers 204 when the bytes fail to go after the row is deleted (the sweep removes them later)', async () => {
    const [first] = await list();
    const remove = jest
      .spyOn(t.app.storage, 'remove')
      .mockRejectedValueOnce(Object.assign(new Error('EACCES'), { code: 'EACCES' }));
    try {
      expect((await t.api({ method: 'DELETE', url: `${url()}/${first.id}`, cookie: admin })).statusCode).toBe(204);
      expect(remove).toHaveBeenCalled();
    } finally {
      remove.mockRestore();
    }
    expect((await list()).map((f) => f.id)).not.toContain(first.id);
  });

  it("does not delete another setting's file", async () => {
    const other = (
      await t.api({
        method: 'POST',
        url: '/api/v1/system-settings',
        cookie: admin,
        payload: { key: 'bell', status: 'inactive', value: 'x' },
      })
    ).json().id;
    const [file] = await list();
    expect((await t.api({ method: 'DELETE', url: `${url(other)}/${file.id}`, cookie: admin })).statusCode).toBe(404);
  });

  it('removes the bytes of every attached file when the setting itself is deleted', async () => {
    const setting = (
      await t.api({
        method: 'POST',
        url: '/api/v1/system-settings',
        cookie: admin,
        payload: { key: 'help', status: 'inactive', value: 'Doomed' },
      })
    ).json().id;
    const before = (await stored()).length;
    expect(
      (
        await upload(
          [
            { filename: 'a.pdf', data: PDF },
            { filename: 'b.png', data: PNG },
          ],
          admin,
          setting,
        )
      ).statusCode,
    ).toBe(200);
    expect(await stored()).toHaveLength(before + 2);
    expect(
      (await t.api({ method: 'DELETE', url: `/api/v1/system-settings/${setting}`, cookie: admin })).statusCode,
    ).toBe(204);
    expect(await stored()).toHaveLength(before);
    expect(
      await t.database.db.selectFrom('system_setting_files').select('id').where('message_id', '=', setting).execute(),
    ).toEqual([]);
  });
});

async function until(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

describe('an upload whose connection is cut mid-stream', () => {
  it('leaves no staged bytes, no stored bytes and no row', async () => {
    const setting = (
      await t.api({
        method: 'POST',
        url: '/api/v1/system-settings',
        cookie: admin,
        payload: { key: 'help', status: 'inactive', value: 'x' },
      })
    ).json().id;
    const settingRows = async () =>
      (await t.database.db.selectFrom('system_setting_files').select('id').where('message_id', '=', setting).execute())
        .length;
    const keysBefore = await storage().keys();

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const boundary = `----portal-test-${randomUUID()}`;
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'PATCH',
      path: `/api/v1/system-settings/${setting}/files`,
      headers: {
        cookie: admin,
        'x-portal-client': 'web',
        origin: `http://127.0.0.1:${port}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(5 * 1024 * 1024),
      },
    });
    request.on('error', () => undefined);
    request.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="half.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    request.write(PDF);
    request.write(Buffer.alloc(256 * 1024, 0x20));
    // the bytes are arriving: a staged file exists
    expect(await until(async () => (await storage().stagedNames()).length === 1)).toBe(true);
    request.destroy();

    expect(await until(async () => (await storage().stagedNames()).length === 0)).toBe(true);
    expect(await settingRows()).toBe(0);
    expect((await storage().keys()).sort()).toEqual(keysBefore.sort());
  });
});
