import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createTestApp, type TestApp } from '../test/app';
import type { LocalDiskStorage } from './storage';
import { commitUpload, discardForm, readStreamedForm } from './uploads';

const LIMIT = 1000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { UPLOAD_MAX_BYTES: String(LIMIT) },
    extend: (app) =>
      app.register(async (scope) => {
        // Reads the form, answers what it saw, and keeps nothing.
        scope.post('/api/v1/test/upload', { config: { policy: 'public' } }, async (request) => {
          const form = await readStreamedForm(request, {
            storage: app.storage,
            fileField: 'file',
            maxFiles: 2,
            maxBytes: app.config.uploadMaxBytes,
          });
          await discardForm(form);
          return {
            fields: form.fields,
            files: form.files.map((f) => ({
              field: f.field,
              name: f.name,
              contentType: f.contentType,
              size: f.blob.size,
              sha256: f.blob.sha256,
            })),
          };
        });
        scope.post('/api/v1/test/idle-upload', { config: { policy: 'public' } }, async (request) => {
          const form = await readStreamedForm(request, {
            storage: app.storage,
            fileField: 'file',
            maxFiles: 1,
            maxBytes: LIMIT,
            idleTimeoutMs: 300,
          });
          await discardForm(form);
          return { files: form.files.length };
        });
        scope.post('/api/v1/test/optional-upload', { config: { policy: 'public' } }, async (request) => {
          const form = await readStreamedForm(request, {
            storage: app.storage,
            fileField: 'file',
            maxFiles: 1,
            maxBytes: LIMIT,
            required: false,
          });
          return { fields: form.fields, files: form.files.length };
        });
      }),
  });
});
afterAll(() => t.close());

const storage = () => t.app.storage as LocalDiskStorage;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0x20)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.from([0x90, 0, 3, 0]), Buffer.alloc(100)]);
const HTML = Buffer.from('<html><script>alert(1)</script></html>');

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; contentType?: string };

function multipart(parts: Part[]) {
  const boundary = `----portal-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const post = (parts: Part[], url = '/api/v1/test/upload') => t.api({ method: 'POST', url, ...multipart(parts) });
const file = (filename: string, data: Buffer): Part => ({ name: 'file', filename, data });

describe('readStreamedForm', () => {
  afterEach(async () => {
    // Whatever happened, nothing stays staged.
    expect(await storage().stagedNames()).toEqual([]);
  });

  it('reads fields (repeated ones as arrays) and files, each checked by its bytes and named by its display name only', async () => {
    const before = await storage().keys();
    const res = await post([
      { name: 'folderId', value: 'f1' },
      { name: 'recipientIds', value: 'a' },
      { name: 'recipientIds', value: 'b' },
      file('../../x.txt', Buffer.from('hello')),
      file('report.pdf', PDF),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      fields: { folderId: 'f1', recipientIds: ['a', 'b'] },
      files: [
        {
          field: 'file',
          name: 'x.txt',
          contentType: 'text/plain',
          size: 5,
          sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
        },
        expect.objectContaining({ name: 'report.pdf', contentType: 'application/pdf', size: PDF.length }),
      ],
    });
    // the name was never a path: nothing next to or above the storage
    expect(fs.existsSync(path.join(t.config.dataDir, 'x.txt'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(t.config.dataDir), 'x.txt'))).toBe(false);
    expect(await storage().keys()).toEqual(before);
  });

  it('takes a file of exactly the limit and refuses one byte more, naming the field and the limit', async () => {
    expect((await post([file('a.bin', Buffer.alloc(LIMIT, 1))])).statusCode).toBe(200);
    const res = await post([file('a.bin', Buffer.alloc(LIMIT + 1, 1))]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'file', message: 'file must be at most 1000 B' }],
    });
  });

  it('refuses an oversize file sent after a good one, keeping neither', async () => {
    const res = await post([file('ok.pdf', PDF), file('big.bin', Buffer.alloc(LIMIT * 5, 1))]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'file', message: 'file must be at most 1000 B' }]);
  });

  it('refuses an empty file naming it', async () => {
    const res = await post([file('empty.pdf', Buffer.alloc(0))]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'file', message: 'file: empty.pdf is empty' }],
    });
  });

  it.each([
    ['a .pdf that is a program', 'invoice.pdf', EXE, 'invoice.pdf is not a PDF'],
    ['a .pdf that is a web page', 'invoice.pdf', HTML, 'invoice.pdf is not a PDF'],
    ['a program without an extension', 'setup', EXE, 'setup is a program, and programs are not accepted'],
    ['an .exe', 'setup.exe', PDF, 'setup.exe: .exe files are programs and are not accepted'],
  ])('refuses %s with 415 unsupported_file_type', async (_label, name, data, reason) => {
    const res = await post([file(name, data)]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_file_type', details: [{ field: 'file', message: reason }] });
  });

  it('refuses another file field, too many files and a missing file, naming the field', async () => {
    const other = await post([{ name: 'attachment', filename: 'a.pdf', data: PDF }]);
    expect([other.statusCode, other.json().details]).toEqual([
      400,
      [{ field: 'attachment', message: 'attachment is not a file field of this form' }],
    ]);
    const many = await post([file('a.pdf', PDF), file('b.pdf', PDF), file('c.pdf', PDF)]);
    expect([many.statusCode, many.json().details]).toEqual([
      400,
      [{ field: 'file', message: 'file takes at most 2 files' }],
    ]);
    const none = await post([{ name: 'folderId', value: 'f1' }]);
    expect([none.statusCode, none.json().details]).toEqual([400, [{ field: 'file', message: 'file is required' }]]);
    const optional = await post([{ name: 'note', value: 'x' }], '/api/v1/test/optional-upload');
    expect(optional.json()).toEqual({ fields: { note: 'x' }, files: 0 });
  });

  it('cuts off an upload that stalls and discards what it staged', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const { payload, headers } = multipart([file('slow.pdf', Buffer.concat([PDF, Buffer.alloc(500, 7)]))]);
    const head = [
      'POST /api/v1/test/idle-upload HTTP/1.1',
      'Host: localhost',
      'Origin: http://localhost',
      'X-Portal-Client: web',
      `Content-Type: ${headers['content-type']}`,
      `Content-Length: ${payload.length}`,
      '',
      '',
    ].join('\r\n');
    const started = Date.now();
    const closed = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(head);
        // Half the body, then silence.
        socket.write(payload.subarray(0, Math.floor(payload.length / 2)));
      });
      let reply = '';
      socket.on('data', (chunk) => (reply += chunk.toString()));
      // Closed with no answer (the staged file discarded), not answered.
      socket.on('close', () =>
        reply === '' ? resolve(Date.now() - started) : reject(new Error(reply.split('\r\n')[0])),
      );
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error('the server kept the stalled upload open'));
      }, 5000).unref();
    });
    expect(closed).toBeGreaterThanOrEqual(250);
    for (let i = 0; i < 40 && (await storage().stagedNames()).length > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
  });

  it('refuses a body that is not multipart, or is malformed, with 400 bad_request', async () => {
    const json = await t.api({ method: 'POST', url: '/api/v1/test/upload', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'bad_request', message: 'The body must be multipart form data.' });
    const broken = await t.api({
      method: 'POST',
      url: '/api/v1/test/upload',
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('bad_request');
  });
});

describe('commitUpload', () => {
  it('answers 400 "send it again" when the staged bytes went meanwhile (another instance swept them)', async () => {
    const blob = await storage().stage(Readable.from([PDF]), { maxBytes: LIMIT });
    for (const name of await storage().stagedNames()) fs.rmSync(path.join(storage().stagingDir, name));
    await expect(
      commitUpload({ field: 'file', name: 'a.pdf', contentType: 'application/pdf', blob }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'The upload was interrupted: send it again.',
    });
  });
});
