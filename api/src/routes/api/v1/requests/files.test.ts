import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REQUEST_MAX_FILES, type RequestFile } from '@portal/shared/core/requests';
import type { SignedUrl } from '@portal/shared/core/files';
import { setUserModuleAccess } from '../../../../db/module-access';
import { nowIso } from '../../../../db/values';
import { createTestApp, type TestApp } from '../../../../test/app';
import { auditRows, newActiveProject, newCompany } from '../../../../test/project-fixtures';
import {
  PDF,
  PNG,
  insertTestRequest,
  multipart,
  person,
  setRequestStatus,
  type Part,
  type Person,
  type TestRequest,
} from '../../../../test/evidence-fixtures';
import { REQUEST_UPLOAD_MAX_FILES } from './files';

let t: TestApp;
let companyId: string;
let stella: Person;
let audrey: Person;
let ann: Person;
let ben: Person;
let cleo: Person;
let globex: Person;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await newCompany(t, `Evidence ${randomUUID()}`);
  stella = await person(t, { isTevora: true, firstName: 'Stella' });
  audrey = await person(t, { isTevora: true, isAuditor: true, firstName: 'Audrey' });
  ann = await person(t, { companyIds: [companyId], firstName: 'Ann' });
  ben = await person(t, { companyIds: [companyId], firstName: 'Ben' });
  cleo = await person(t, { companyIds: [companyId], firstName: 'Cleo' });
  globex = { id: '', email: 'client@globex.test', cookie: await t.cookieFor('client@globex.test') };
  projectId = await newActiveProject(t, companyId, 'Evidence project', [[audrey.id, 'Consultant']]);
});
afterAll(() => t.close());

const newRequest = () =>
  insertTestRequest(t, {
    companyId,
    title: 'Firewall review',
    requesterId: stella.id,
    assigneeIds: [ann.id, ben.id],
    projectId,
  });
const filesUrl = (r: TestRequest) => `/api/v1/requests/${r.id}/files`;
const upload = (r: TestRequest, who: Person, files: Part[]) =>
  t.api({ method: 'POST', url: filesUrl(r), cookie: who.cookie, ...multipart(files) });
async function uploadOk(
  r: TestRequest,
  who: Person,
  files: Part[] = [{ filename: 'export.pdf', data: PDF }],
): Promise<RequestFile[]> {
  const res = await upload(r, who, files);
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return (res.json() as { results: RequestFile[] }).results;
}
const remove = (r: TestRequest, fileId: string, who: Person) =>
  t.api({ method: 'DELETE', url: `${filesUrl(r)}/${fileId}`, cookie: who.cookie });
const fileRows = (r: TestRequest) =>
  t.database.db
    .selectFrom('request_files')
    .selectAll()
    .where('request_id', '=', r.id)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
const history = async (r: TestRequest) =>
  (
    await t.database.db
      .selectFrom('request_events')
      .select(['type', 'detail', 'actor_id'])
      .where('request_id', '=', r.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((e) => [e.type, JSON.parse(e.detail)]);
const blobExists = async (key: string) => {
  const stream = await t.app.storage.open(key);
  stream?.destroy();
  return stream !== null;
};
/** Every file under the storage's folder, staged or committed. */
function storedFiles(dir = path.join(t.config.dataDir, 'files')): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const signedUrl = (fileId: string, who: Person) =>
  t.api({ method: 'GET', url: `/api/v1/files/${fileId}/signed-url`, cookie: who.cookie });

describe('uploading evidence', () => {
  it('stores the files of an assignee with the history, the audit and their bytes', async () => {
    const request = await newRequest();
    const results = await uploadOk(request, ann, [
      { filename: 'export.pdf', data: PDF },
      { filename: '../screens/shot 1.png', data: PNG },
    ]);
    expect(results.map((f) => [f.name, f.contentType, f.size, f.uploadedBy?.id, f.canDelete, f.requestId])).toEqual([
      ['export.pdf', 'application/pdf', PDF.length, ann.id, true, request.id],
      ['shot 1.png', 'image/png', PNG.length, ann.id, true, request.id],
    ]);
    const rows = await fileRows(request);
    expect(rows.map((r) => r.company_id)).toEqual([companyId, companyId]);
    for (const row of rows) expect(await blobExists(row.storage_key)).toBe(true);
    expect(await history(request)).toEqual([
      ['file_added', { name: 'export.pdf' }],
      ['file_added', { name: 'shot 1.png' }],
    ]);
    expect(await auditRows(t, 'request.file.upload', request.id)).toEqual([
      expect.objectContaining({
        actor_email: ann.email,
        after: {
          files: [expect.objectContaining({ name: 'export.pdf' }), expect.objectContaining({ name: 'shot 1.png' })],
        },
      }),
    ]);
    // Staff managers add evidence too.
    expect((await uploadOk(request, stella))[0]).toMatchObject({ uploadedBy: { id: stella.id }, canDelete: true });
  });

  it('takes evidence only from those who respond or manage, only while the client is working on it', async () => {
    const request = await newRequest();
    const auditor = await upload(request, audrey, [{ filename: 'a.pdf', data: PDF }]);
    expect(auditor.statusCode).toBe(403);
    expect(auditor.json()).toMatchObject({ code: 'forbidden' });

    await setRequestStatus(t, request.id, 'returned', 'More please');
    await uploadOk(request, ann);
    for (const [status, code] of [
      ['submitted', 'request_under_review'],
      ['accepted', 'request_is_closed'],
      ['canceled', 'request_is_closed'],
    ] as const) {
      await setRequestStatus(t, request.id, status);
      for (const who of [ann, stella]) {
        const res = await upload(request, who, [{ filename: 'late.pdf', data: PDF }]);
        expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 409, code });
      }
    }
    expect((await fileRows(request)).map((r) => r.name)).toEqual(['export.pdf']);
  });

  it('refuses files whose content is not what their name says, too many at once, or past the request limit, keeping no bytes', async () => {
    const request = await newRequest();
    const blobs = storedFiles().length;
    const wrong = await upload(request, ann, [
      { filename: 'ok.pdf', data: PDF },
      { filename: 'photo.pdf', data: PNG },
    ]);
    expect(wrong.statusCode).toBe(415);
    expect(wrong.json()).toMatchObject({ code: 'unsupported_file_type' });

    const many = await upload(
      request,
      ann,
      Array.from({ length: REQUEST_UPLOAD_MAX_FILES + 1 }, (_, i) => ({ filename: `f${i}.pdf`, data: PDF })),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'files' })],
    });

    const none = await upload(request, ann, []);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ details: [expect.objectContaining({ field: 'files' })] });

    // Up to the limit with rows written directly, then one upload too many.
    const now = nowIso();
    await t.database.db
      .insertInto('request_files')
      .values(
        Array.from({ length: REQUEST_MAX_FILES - 1 }, (_, i) => ({
          id: randomUUID(),
          request_id: request.id,
          company_id: companyId,
          name: `old-${i}.pdf`,
          content_type: 'application/pdf',
          size: 10,
          sha256: 'x',
          storage_key: `missing/${randomUUID()}`,
          uploaded_by: ann.id,
          created_at: now,
        })),
      )
      .execute();
    const over = await upload(request, ann, [
      { filename: 'one.pdf', data: PDF },
      { filename: 'two.pdf', data: PDF },
    ]);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'files', message: expect.stringContaining(`at most ${REQUEST_MAX_FILES}`) }],
    });
    expect((await fileRows(request)).length).toBe(REQUEST_MAX_FILES - 1);
    expect(storedFiles()).toHaveLength(blobs);
    await uploadOk(request, ann, [{ filename: 'last.pdf', data: PDF }]);
    expect(await history(request)).toEqual([['file_added', { name: 'last.pdf' }]]);
  });

  it('is not open to users who do not see the request', async () => {
    const request = await newRequest();
    for (const who of [cleo, globex]) {
      const res = await upload(request, who, [{ filename: 'x.pdf', data: PDF }]);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'request_not_found' });
    }
  });
});

describe('removing evidence', () => {
  it('lets a client remove their own files while the request is open or returned', async () => {
    const request = await newRequest();
    const [own] = await uploadOk(request, ann);
    const [others] = await uploadOk(request, ben, [{ filename: 'ben.pdf', data: PDF }]);
    const key = (await fileRows(request)).find((r) => r.id === own.id)!.storage_key;

    const notMine = await remove(request, others.id, ann);
    expect({ status: notMine.statusCode, code: notMine.json().code }).toEqual({ status: 403, code: 'forbidden' });

    await setRequestStatus(t, request.id, 'submitted');
    const review = await remove(request, own.id, ann);
    expect({ status: review.statusCode, code: review.json().code }).toEqual({
      status: 409,
      code: 'request_under_review',
    });
    await setRequestStatus(t, request.id, 'canceled');
    const closed = await remove(request, own.id, ann);
    expect({ status: closed.statusCode, code: closed.json().code }).toEqual({ status: 409, code: 'request_is_closed' });

    await setRequestStatus(t, request.id, 'returned', 'Wrong file');
    expect((await remove(request, own.id, ann)).statusCode).toBe(204);
    expect((await fileRows(request)).map((r) => r.name)).toEqual(['ben.pdf']);
    expect(await blobExists(key)).toBe(false);
    expect((await history(request)).slice(-1)).toEqual([['file_removed', { name: 'export.pdf' }]]);
    expect(await auditRows(t, 'request.file.delete', request.id)).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ fileId: own.id, name: 'export.pdf' }) }),
    ]);

    const again = await remove(request, own.id, ann);
    expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 404, code: 'file_not_found' });
  });

  it('lets staff managers remove any file while evidence may change; nobody once submitted or closed; auditors never', async () => {
    const request = await newRequest();
    const [first, second, third] = await uploadOk(request, ann, [
      { filename: 'a.pdf', data: PDF },
      { filename: 'b.pdf', data: PDF },
      { filename: 'c.pdf', data: PDF },
    ]);
    const auditor = await remove(request, first.id, audrey);
    expect({ status: auditor.statusCode, code: auditor.json().code }).toEqual({ status: 403, code: 'forbidden' });
    expect((await remove(request, first.id, stella)).statusCode).toBe(204);

    const expectRefused = async (code: string) => {
      for (const who of [stella, ann]) {
        const res = await remove(request, second.id, who);
        expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 409, code });
      }
      // Whoever could not remove it anyway hears no more than before.
      for (const who of [audrey, ben]) expect((await remove(request, second.id, who)).statusCode).toBe(403);
      for (const who of [stella, ann]) {
        const detail = (
          await t.api({ method: 'GET', url: `/api/v1/requests/${request.id}`, cookie: who.cookie })
        ).json() as { files: RequestFile[] };
        expect(detail.files.map((f) => f.canDelete)).toEqual([false, false]);
      }
    };
    await setRequestStatus(t, request.id, 'submitted');
    await expectRefused('request_under_review');
    await setRequestStatus(t, request.id, 'accepted');
    await expectRefused('request_is_closed');
    await setRequestStatus(t, request.id, 'canceled');
    await expectRefused('request_is_closed');
    await setRequestStatus(t, request.id, 'returned');
    expect((await remove(request, third.id, stella)).statusCode).toBe(204);
    expect((await fileRows(request)).map((r) => r.id)).toEqual([second.id]);
  });

  it('finds only the files of the request named in the address', async () => {
    const request = await newRequest();
    const other = await newRequest();
    const [file] = await uploadOk(other, ann);
    const res = await remove(request, file.id, stella);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'file_not_found' });
    expect(await fileRows(other)).toHaveLength(1);
  });
});

describe('downloading evidence', () => {
  it('signs a link for whoever sees the request, and 404 for anyone else', async () => {
    const request = await newRequest();
    const [file] = await uploadOk(request, ann);
    for (const who of [ann, ben, stella, audrey]) {
      const res = await signedUrl(file.id, who);
      expect(res.statusCode).toBe(200);
      expect((res.json() as SignedUrl).name).toBe('export.pdf');
    }
    const signed = (await signedUrl(file.id, ben)).json() as SignedUrl;
    const content = await t.api({
      method: 'GET',
      url: signed.url.replace(/^https?:\/\/[^/]+/, ''),
      cookie: ben.cookie,
    });
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(PDF)).toBe(true);

    for (const who of [cleo, globex]) {
      const res = await signedUrl(file.id, who);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'file_not_found' });
    }
    // The requests module turned off for a user: the file is not theirs to see any more.
    await setUserModuleAccess(t.database.db, companyId, ben.id, 'requests', false);
    expect((await signedUrl(file.id, ben)).statusCode).toBe(404);
    await setUserModuleAccess(t.database.db, companyId, ben.id, 'requests', null);
    expect((await signedUrl(file.id, ben)).statusCode).toBe(200);
  });
});
