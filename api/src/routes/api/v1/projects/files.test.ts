import net from 'node:net';
import type { DocumentList, FileDetail, FileList, Folder, SignedUrl, TaskFile } from '@portal/shared/core/files';
import { addProjectMember } from '../../../../db/projects';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';
import {
  PDF,
  PNG,
  blobExists,
  blobsOnDisk,
  createFolder,
  multipart,
  rootOf,
  setProjectStatus,
  storageKeysOf,
  upload,
  uploadRaw,
} from '../../../../test/project-file-fixtures';
import { acmeProjectsSetup, auditRows, insertTask, newActiveProject } from '../../../../test/project-fixtures';

/** Small, so the size limit is cheap to pass. */
const MAX_BYTES = 4096;

let t: TestApp;
let acmeId: string;
let globexId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** Acme project: consultant is Lead Consultant, lead@acme.test Client Lead; member@acme.test holds no role. */
let projectId: string;
let otherProjectId: string;
let root: Folder;

beforeAll(async () => {
  t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(MAX_BYTES) } });
  ({ acmeId, userIds, cookies, projectId, otherProjectId } = await acmeProjectsSetup(
    t,
    ['Files test project', 'Files other project'],
    [
      'consultant@demo.test',
      'lead@acme.test',
      'member@acme.test',
      'client@globex.test',
      'auditor@demo.test',
      'admin@demo.test',
    ],
  ));
  globexId = await companyId(t, 'Globex Inc');
  root = await rootOf(t, consultant(), projectId);
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];
const outsider = () => cookies['client@globex.test'];

const filesUrl = (project = projectId) => `/api/v1/projects/${project}/files`;
const fileUrl = (fileId: string, project = projectId) => `${filesUrl(project)}/${fileId}`;
const taskFilesUrl = (taskId: string, project = projectId) => `/api/v1/projects/${project}/tasks/${taskId}/files`;

const put = (filename: string, data: Buffer = PDF, extra: Record<string, string> = {}, folderId = root.id) =>
  upload(t, consultant(), projectId, folderId, filename, data, extra);

async function fileCount(): Promise<number> {
  const row = await t.database.db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Runs a refused upload and shows it left no row and no bytes (committed or staged). */
async function expectNothingLeft(work: () => Promise<void>): Promise<void> {
  const rows = await fileCount();
  const before = blobsOnDisk(t);
  await work();
  expect(await fileCount()).toBe(rows);
  const after = blobsOnDisk(t);
  expect(after.committed.sort()).toEqual(before.committed.sort());
  expect(after.staged).toEqual([]);
}

async function signedUrl(fileId: string, cookie: string, versionId?: string) {
  return t.api({
    method: 'GET',
    url: `/api/v1/files/${fileId}/signed-url${versionId ? `?versionId=${versionId}` : ''}`,
    cookie,
  });
}

describe('POST /api/v1/projects/:id/files', () => {
  it('stores an upload with its checked type, hash and uploader, answers it (201) and records it', async () => {
    const file = await put('Policy.pdf');
    expect(file).toMatchObject({
      projectId,
      folderId: root.id,
      name: 'Policy.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      version: 1,
      versionCount: 1,
      taskCount: 0,
      uploadedBy: { id: userIds['consultant@demo.test'], email: 'consultant@demo.test' },
    });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    const [key] = await storageKeysOf(t, file.id);
    expect(blobExists(t, key)).toBe(true);
    expect(key).not.toContain('Policy');
    const [entry] = await auditRows(t, 'file.upload', file.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      target_type: 'file',
      after: { projectId, name: 'Policy.pdf', version: 1, sha256: file.sha256 },
    });
    const row = await t.database.db
      .selectFrom('files')
      .select(['company_id', 'current_version_id'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(acmeId);
  });

  it('refuses a name the folder holds in any case (409 duplicate_filename naming file) and keeps no bytes', async () => {
    await put('Duplicate.pdf');
    await expectNothingLeft(async () => {
      const res = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id },
        { filename: 'DUPLICATE.pdf', data: PDF },
      );
      expect({ status: res.statusCode, body: res.json() }).toMatchObject({
        status: 409,
        body: { code: 'duplicate_filename', details: [{ field: 'file' }] },
      });
    });
    // another folder may hold the same name
    const folder = await createFolder(t, consultant(), projectId, root.id, 'Dup elsewhere');
    await put('Duplicate.pdf', PDF, {}, folder.id);
  });

  it('adds a version instead when asked (onConflict=version): earlier versions stay, newest first', async () => {
    const first = await put('Versioned.png', PNG);
    const second = await upload(t, lead(), projectId, root.id, 'versioned.PNG', PNG, { onConflict: 'version' });
    expect(second).toMatchObject({
      id: first.id,
      name: 'Versioned.png',
      version: 2,
      versionCount: 2,
      uploadedBy: { email: 'lead@acme.test' },
    });
    const res = await t.api({ method: 'GET', url: fileUrl(first.id), cookie: member() });
    expect(res.statusCode).toBe(200);
    const detail = res.json() as FileDetail;
    expect(detail.versions.map((v) => [v.version, v.uploadedBy?.email])).toEqual([
      [2, 'lead@acme.test'],
      [1, 'consultant@demo.test'],
    ]);
    expect(detail.versions[1].sha256).toBe(first.sha256);
    const keys = await storageKeysOf(t, first.id);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(blobExists(t, key)).toBe(true);
    expect((await auditRows(t, 'file.version', first.id))[0]).toMatchObject({
      actor_email: 'lead@acme.test',
      after: { version: 2 },
    });
  });

  it('keeps only the last segment of a name: ../../x.txt is stored as x.txt, never as a path', async () => {
    const file = await put('../../x.txt', Buffer.from('hello\n'));
    expect(file).toMatchObject({ name: 'x.txt', contentType: expect.stringMatching(/^text\/plain/) });
    const evil = await put('..\\..\\evil.pdf');
    expect(evil.name).toBe('evil.pdf');
    expect(blobsOnDisk(t).committed.some((name) => name.includes('x.txt') || name.includes('evil'))).toBe(false);
  });

  it('refuses an oversize, empty or wrongly typed file, naming the field, and keeps nothing', async () => {
    await expectNothingLeft(async () => {
      const big = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id },
        { filename: 'big.pdf', data: Buffer.concat([PDF, Buffer.alloc(MAX_BYTES)]) },
      );
      expect({ status: big.statusCode, body: big.json() }).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: [{ field: 'file' }] },
      });
      const empty = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id },
        { filename: 'empty.pdf', data: Buffer.alloc(0) },
      );
      expect({ status: empty.statusCode, body: empty.json() }).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: [{ field: 'file' }] },
      });
      const fake = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id },
        { filename: 'fake.pdf', data: Buffer.from('just text, not a PDF') },
      );
      expect({ status: fake.statusCode, body: fake.json() }).toMatchObject({
        status: 415,
        body: { code: 'unsupported_file_type', details: [{ field: 'file' }] },
      });
      const exe = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id },
        { filename: 'tool.png', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 1)]) },
      );
      expect(exe.statusCode).toBe(415);
      const none = await uploadRaw(t, consultant(), projectId, { folderId: root.id });
      expect({ status: none.statusCode, field: none.json().details?.[0]?.field }).toEqual({
        status: 400,
        field: 'file',
      });
    });
  });

  it('refuses bad fields (400 naming them) and a folder or task of elsewhere (404), removing the committed bytes', async () => {
    const otherRoot = await rootOf(t, consultant(), otherProjectId);
    const otherTask = await insertTask(t, otherProjectId);
    await expectNothingLeft(async () => {
      const missing = await uploadRaw(t, consultant(), projectId, {}, { filename: 'a.pdf', data: PDF });
      expect({ status: missing.statusCode, field: missing.json().details?.[0]?.field }).toEqual({
        status: 400,
        field: 'folderId',
      });
      const conflict = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id, onConflict: 'replace' },
        { filename: 'a.pdf', data: PDF },
      );
      expect({ status: conflict.statusCode, field: conflict.json().details?.[0]?.field }).toEqual({
        status: 400,
        field: 'onConflict',
      });
      const foreign = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: otherRoot.id },
        { filename: 'a.pdf', data: PDF },
      );
      expect({ status: foreign.statusCode, code: foreign.json().code }).toEqual({
        status: 404,
        code: 'folder_not_found',
      });
      const task = await uploadRaw(
        t,
        consultant(),
        projectId,
        { folderId: root.id, taskId: otherTask },
        { filename: 'a.pdf', data: PDF },
      );
      expect({ status: task.statusCode, code: task.json().code }).toEqual({ status: 404, code: 'task_not_found' });
      const notMultipart = await t.api({
        method: 'POST',
        url: filesUrl(),
        cookie: consultant(),
        payload: { folderId: root.id },
      });
      expect(notMultipart.statusCode).toBe(400);
    });
  });

  it('attaches the upload to a task when asked, also as a new version of an attached file', async () => {
    const taskId = await insertTask(t, projectId, { title: 'Collect evidence' });
    const file = await put('On task.pdf', PDF, { taskId });
    expect(file.taskCount).toBe(1);
    const again = await put('On task.pdf', PDF, { taskId, onConflict: 'version' });
    expect(again).toMatchObject({ id: file.id, version: 2, taskCount: 1 });
    const res = await t.api({ method: 'GET', url: taskFilesUrl(taskId), cookie: member() });
    expect((res.json() as { results: TaskFile[] }).results.map((f) => f.id)).toEqual([file.id]);
    expect(await auditRows(t, 'task.file.attach', taskId)).toHaveLength(1);
  });

  it('is for writers of the project, and a canceled project keeps no new bytes (409 project_is_canceled)', async () => {
    await expectNothingLeft(async () => {
      expect(
        (await uploadRaw(t, member(), projectId, { folderId: root.id }, { filename: 'm.pdf', data: PDF })).statusCode,
      ).toBe(403);
      const foreign = await uploadRaw(
        t,
        outsider(),
        projectId,
        { folderId: root.id },
        { filename: 'o.pdf', data: PDF },
      );
      expect({ status: foreign.statusCode, code: foreign.json().code }).toEqual({
        status: 404,
        code: 'project_not_found',
      });
      const canceled = await newActiveProject(t, acmeId, 'Files canceled', [
        [userIds['consultant@demo.test'], 'Lead Consultant'],
      ]);
      const canceledRoot = await rootOf(t, consultant(), canceled);
      await setProjectStatus(t, canceled, 'canceled');
      const res = await uploadRaw(
        t,
        consultant(),
        canceled,
        { folderId: canceledRoot.id },
        { filename: 'c.pdf', data: PDF },
      );
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 409, code: 'project_is_canceled' });
    });
  });

  it('leaves neither a row nor bytes when the connection is cut mid-upload', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    /** The upload over a real socket: whole (answers the reply's status line) or cut after half the body. */
    const send = (filename: string, cut: boolean) => {
      const { payload, headers } = multipart(
        { folderId: root.id },
        { filename, data: Buffer.concat([PDF, Buffer.alloc(MAX_BYTES - PDF.length - 10, 7)]) },
      );
      const head = [
        `POST ${filesUrl()} HTTP/1.1`,
        'Host: localhost',
        'Origin: http://localhost',
        'X-Portal-Client: web',
        `Cookie: ${consultant()}`,
        `Content-Type: ${headers['content-type']}`,
        `Content-Length: ${payload.length}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n');
      return new Promise<string>((resolve, reject) => {
        let reply = '';
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(head);
          if (cut)
            socket.write(payload.subarray(0, Math.floor(payload.length / 2)), () =>
              setTimeout(() => socket.destroy(), 100),
            );
          else socket.write(payload);
        });
        socket.on('data', (chunk) => (reply += chunk.toString()));
        socket.on('close', () => resolve(reply.split('\r\n')[0]));
        socket.on('error', reject);
      });
    };
    // The same request, whole, is stored: the cut one reaches the route too.
    expect(await send('whole.pdf', false)).toBe('HTTP/1.1 201 Created');
    const rows = await fileCount();
    const before = blobsOnDisk(t);
    await send('cut.pdf', true);
    // The server notices the cut and cleans up: wait for the staging folder to empty.
    for (let i = 0; i < 50 && blobsOnDisk(t).staged.length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    expect(await fileCount()).toBe(rows);
    const after = blobsOnDisk(t);
    expect(after.staged).toEqual([]);
    expect(after.committed.sort()).toEqual(before.committed.sort());
    expect(await t.database.db.selectFrom('files').select('id').where('name', '=', 'cut.pdf').execute()).toEqual([]);
  });
});

describe('GET /api/v1/projects/:id/files', () => {
  let folder: Folder;
  beforeAll(async () => {
    folder = await createFolder(t, consultant(), projectId, root.id, 'Listing');
    await put('b-report.pdf', PDF, {}, folder.id);
    await put('A-small.txt', Buffer.from('a'), {}, folder.id);
    await put('c-large.png', PNG, {}, folder.id);
  });
  const list = async (query: string, cookie = member()) => {
    const res = await t.api({ method: 'GET', url: `${filesUrl()}?${query}`, cookie });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
    return res.json() as FileList;
  };

  it('lists one folder, by name by default, with paging', async () => {
    const page = await list(`folderId=${folder.id}&pageSize=2`);
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.results.map((f) => f.name)).toEqual(['A-small.txt', 'b-report.pdf']);
    expect((await list(`folderId=${folder.id}&pageSize=2&page=2`)).results.map((f) => f.name)).toEqual(['c-large.png']);
    expect((await list(`folderId=${folder.id}&sort=-name`)).results.map((f) => f.name)).toEqual([
      'c-large.png',
      'b-report.pdf',
      'A-small.txt',
    ]);
    expect((await list(`folderId=${folder.id}&sort=size`)).results[0].name).toBe('A-small.txt');
    expect((await list(`folderId=${folder.id}&sort=-updatedAt`)).results[0].name).toBe('c-large.png');
  });

  it('searches names, and lists the root when no folder is given', async () => {
    expect((await list(`folderId=${folder.id}&search=REPORT`)).results.map((f) => f.name)).toEqual(['b-report.pdf']);
    expect((await list(`folderId=${folder.id}&search=%25`)).total).toBe(0);
    const rootList = await list('pageSize=200');
    expect(rootList.results.every((f) => f.folderId === root.id)).toBe(true);
    expect(rootList.results.map((f) => f.name)).toContain('Policy.pdf');
  });

  it('answers 404 folder_not_found for a folder of another project, 400 for a bad sort, 404 to another company', async () => {
    const otherRoot = await rootOf(t, consultant(), otherProjectId);
    const res = await t.api({ method: 'GET', url: `${filesUrl()}?folderId=${otherRoot.id}`, cookie: consultant() });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'folder_not_found' });
    const bad = await t.api({ method: 'GET', url: `${filesUrl()}?sort=weight`, cookie: consultant() });
    expect({ status: bad.statusCode, field: bad.json().details?.[0]?.field }).toEqual({ status: 400, field: 'sort' });
    expect((await t.api({ method: 'GET', url: filesUrl(), cookie: outsider() })).statusCode).toBe(404);
  });
});

describe('a file: detail, rename, move, delete, download', () => {
  it('renames and moves a file, refusing a taken name (409 folder_file_already_exist) and a folder of elsewhere (404)', async () => {
    const file = await put('Rename me.pdf');
    await put('Taken.pdf');
    const dest = await createFolder(t, consultant(), projectId, root.id, 'Move dest');
    const taken = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: consultant(),
      payload: { name: 'TAKEN.pdf' },
    });
    expect({ status: taken.statusCode, code: taken.json().code }).toEqual({
      status: 409,
      code: 'folder_file_already_exist',
    });
    const res = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: lead(),
      payload: { name: 'Taken.pdf', folderId: dest.id },
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 200,
      body: { id: file.id, name: 'Taken.pdf', folderId: dest.id },
    });
    expect((await auditRows(t, 'file.rename', file.id))[0]).toMatchObject({
      before: { name: 'Rename me.pdf' },
      after: { name: 'Taken.pdf' },
    });
    expect((await auditRows(t, 'file.move', file.id))[0]).toMatchObject({
      before: { folderId: root.id },
      after: { folderId: dest.id },
    });
    const back = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: consultant(),
      payload: { folderId: root.id },
    });
    expect(back.json().code).toBe('folder_file_already_exist');
    const otherRoot = await rootOf(t, consultant(), otherProjectId);
    const foreign = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: consultant(),
      payload: { folderId: otherRoot.id },
    });
    expect({ status: foreign.statusCode, code: foreign.json().code }).toEqual({
      status: 404,
      code: 'folder_not_found',
    });
    const bad = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: consultant(),
      payload: { name: '../up.pdf' },
    });
    expect({ status: bad.statusCode, field: bad.json().details?.[0]?.field }).toEqual({ status: 400, field: 'name' });
    expect(
      (await t.api({ method: 'PATCH', url: fileUrl(file.id), cookie: member(), payload: { name: 'm.pdf' } }))
        .statusCode,
    ).toBe(403);
  });

  it('keeps the extension on rename and refuses control or direction characters (400 naming name)', async () => {
    const file = await put('Run me.txt', Buffer.from('plain text\n'));
    for (const name of ['Run me.bat', 'Run me.html', 'Run me', 'Run me.txt.exe']) {
      const res = await t.api({ method: 'PATCH', url: fileUrl(file.id), cookie: consultant(), payload: { name } });
      expect({ name, status: res.statusCode, code: res.json().code, details: res.json().details }).toEqual({
        name,
        status: 400,
        code: 'validation_failed',
        details: [{ field: 'name', message: 'name must keep the extension .txt' }],
      });
    }
    for (const name of ['evil\u202Etxt.exe', 'two\r\nlines.txt', 'tab\there.txt']) {
      const res = await t.api({ method: 'PATCH', url: fileUrl(file.id), cookie: consultant(), payload: { name } });
      expect({ status: res.statusCode, details: res.json().details }).toEqual({
        status: 400,
        details: [{ field: 'name', message: 'name must not contain control or direction characters' }],
      });
      const folder = await t.api({
        method: 'POST',
        url: `/api/v1/projects/${projectId}/folders`,
        cookie: consultant(),
        payload: { name, parentId: root.id },
      });
      expect({ status: folder.statusCode, field: folder.json().details?.[0]?.field }).toEqual({
        status: 400,
        field: 'name',
      });
    }
    const ok = await t.api({
      method: 'PATCH',
      url: fileUrl(file.id),
      cookie: consultant(),
      payload: { name: 'Ran me.TXT' },
    });
    expect({ status: ok.statusCode, name: ok.json().name }).toEqual({ status: 200, name: 'Ran me.TXT' });
  });

  it('deletes a file with every version and their bytes (204), then answers 404', async () => {
    const file = await put('Delete me.pdf');
    await put('Delete me.pdf', PDF, { onConflict: 'version' });
    const taskId = await insertTask(t, projectId);
    await t.api({ method: 'POST', url: taskFilesUrl(taskId), cookie: consultant(), payload: { fileId: file.id } });
    const keys = await storageKeysOf(t, file.id);
    expect(keys).toHaveLength(2);
    expect((await t.api({ method: 'DELETE', url: fileUrl(file.id), cookie: member() })).statusCode).toBe(403);
    const res = await t.api({ method: 'DELETE', url: fileUrl(file.id), cookie: consultant() });
    expect(res.statusCode).toBe(204);
    for (const key of keys) expect(blobExists(t, key)).toBe(false);
    expect(
      await t.database.db.selectFrom('task_files').select('task_id').where('file_id', '=', file.id).execute(),
    ).toEqual([]);
    const gone = await t.api({ method: 'GET', url: fileUrl(file.id), cookie: consultant() });
    expect({ status: gone.statusCode, code: gone.json().code }).toEqual({ status: 404, code: 'file_not_found' });
    expect((await t.api({ method: 'DELETE', url: fileUrl(file.id), cookie: consultant() })).statusCode).toBe(404);
    expect((await auditRows(t, 'file.delete', file.id))[0]).toMatchObject({
      before: { name: 'Delete me.pdf', versions: 2, taskIds: [taskId] },
    });
  });

  it("answers 404 for a file of another project through this one's routes", async () => {
    const other = await upload(
      t,
      consultant(),
      otherProjectId,
      (await rootOf(t, consultant(), otherProjectId)).id,
      'Other.pdf',
    );
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.api({ method, url: fileUrl(other.id), cookie: consultant() });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 404,
        code: 'file_not_found',
      });
    }
  });

  it('signs a download for readers of the project, of any version, and serves the bytes; another company gets 404', async () => {
    const data = Buffer.concat([PDF, Buffer.from('% second\n')]);
    const file = await put('Download.pdf');
    await put('Download.pdf', data, { onConflict: 'version' });
    const detail = (await t.api({ method: 'GET', url: fileUrl(file.id), cookie: consultant() })).json() as FileDetail;
    const res = await signedUrl(file.id, member());
    expect(res.statusCode).toBe(200);
    const signed = res.json() as SignedUrl;
    expect(signed.name).toBe('Download.pdf');
    const content = await t.api({ method: 'GET', url: signed.url, cookie: member() });
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(data)).toBe(true);
    expect(content.headers['content-type']).toBe('application/pdf');
    const first = (await signedUrl(file.id, member(), detail.versions[1].id)).json() as SignedUrl;
    expect((await t.api({ method: 'GET', url: first.url, cookie: member() })).rawPayload.equals(PDF)).toBe(true);

    const foreign = await signedUrl(file.id, outsider());
    expect({ status: foreign.statusCode, code: foreign.json().code }).toEqual({ status: 404, code: 'file_not_found' });
    // a version of another file, and an auditor without a role on the project
    const other = await put('Other version.pdf');
    const otherVersion = (
      (await t.api({ method: 'GET', url: fileUrl(other.id), cookie: consultant() })).json() as FileDetail
    ).versions[0].id;
    expect((await signedUrl(file.id, member(), otherVersion)).statusCode).toBe(404);
    expect((await signedUrl(file.id, cookies['auditor@demo.test'])).statusCode).toBe(404);
    // the projects module off for the caller: not theirs to see
    const where = t.database.db
      .updateTable('company_modules_access')
      .where('company_id', '=', acmeId)
      .where('module', '=', 'projects');
    await where.set({ enabled: false }).execute();
    try {
      expect((await signedUrl(file.id, lead())).statusCode).toBe(404);
    } finally {
      await where.set({ enabled: true }).execute();
    }
  });
});

describe('files on tasks', () => {
  it('attaches (201), refuses twice (409), lists, and detaches (204) a file', async () => {
    const taskId = await insertTask(t, projectId, { title: 'Attach here' });
    const file = await put('Attach.pdf');
    const res = await t.api({
      method: 'POST',
      url: taskFilesUrl(taskId),
      cookie: lead(),
      payload: { fileId: file.id },
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 201,
      body: { id: file.id, name: 'Attach.pdf', taskCount: 1, attachedBy: { email: 'lead@acme.test' } },
    });
    expect((res.json() as TaskFile).attachedAt).toEqual(expect.any(String));
    const twice = await t.api({
      method: 'POST',
      url: taskFilesUrl(taskId),
      cookie: lead(),
      payload: { fileId: file.id },
    });
    expect({ status: twice.statusCode, code: twice.json().code }).toEqual({
      status: 409,
      code: 'file_already_attached_to_task',
    });
    const detail = (await t.api({ method: 'GET', url: fileUrl(file.id), cookie: member() })).json() as FileDetail;
    expect(detail.tasks).toEqual([{ id: taskId, title: 'Attach here', referenceId: null }]);
    expect(
      (await t.api({ method: 'DELETE', url: `${taskFilesUrl(taskId)}/${file.id}`, cookie: member() })).statusCode,
    ).toBe(403);
    const del = await t.api({ method: 'DELETE', url: `${taskFilesUrl(taskId)}/${file.id}`, cookie: consultant() });
    expect(del.statusCode).toBe(204);
    const list = await t.api({ method: 'GET', url: taskFilesUrl(taskId), cookie: member() });
    expect(list.json()).toEqual({ results: [] });
    const again = await t.api({ method: 'DELETE', url: `${taskFilesUrl(taskId)}/${file.id}`, cookie: consultant() });
    expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 404, code: 'file_not_found' });
    expect(await auditRows(t, 'task.file.detach', taskId)).toHaveLength(1);
  });

  it('answers 404 for a file or a task of another project, 400 without a file id', async () => {
    const taskId = await insertTask(t, projectId);
    const otherTask = await insertTask(t, otherProjectId);
    const file = await put('Attach other.pdf');
    const other = await upload(
      t,
      consultant(),
      otherProjectId,
      (await rootOf(t, consultant(), otherProjectId)).id,
      'Elsewhere.pdf',
    );
    const foreignFile = await t.api({
      method: 'POST',
      url: taskFilesUrl(taskId),
      cookie: consultant(),
      payload: { fileId: other.id },
    });
    expect({ status: foreignFile.statusCode, code: foreignFile.json().code }).toEqual({
      status: 404,
      code: 'file_not_found',
    });
    const foreignTask = await t.api({
      method: 'POST',
      url: taskFilesUrl(otherTask),
      cookie: consultant(),
      payload: { fileId: file.id },
    });
    expect({ status: foreignTask.statusCode, code: foreignTask.json().code }).toEqual({
      status: 404,
      code: 'task_not_found',
    });
    const listForeign = await t.api({ method: 'GET', url: taskFilesUrl(otherTask), cookie: consultant() });
    expect({ status: listForeign.statusCode, code: listForeign.json().code }).toEqual({
      status: 404,
      code: 'task_not_found',
    });
    const empty = await t.api({ method: 'POST', url: taskFilesUrl(taskId), cookie: consultant(), payload: {} });
    expect({ status: empty.statusCode, field: empty.json().details?.[0]?.field }).toEqual({
      status: 400,
      field: 'fileId',
    });
  });

  it('freezes a canceled project: attach and detach answer 409 project_is_canceled', async () => {
    const canceled = await newActiveProject(t, acmeId, 'Task files canceled', [
      [userIds['consultant@demo.test'], 'Lead Consultant'],
    ]);
    const taskId = await insertTask(t, canceled, { status: 'COMPLETED' });
    const file = await upload(
      t,
      consultant(),
      canceled,
      (await rootOf(t, consultant(), canceled)).id,
      'Frozen.pdf',
      PDF,
      { taskId },
    );
    await setProjectStatus(t, canceled, 'canceled');
    const attach = await t.api({
      method: 'POST',
      url: taskFilesUrl(taskId, canceled),
      cookie: consultant(),
      payload: { fileId: file.id },
    });
    expect({ status: attach.statusCode, code: attach.json().code }).toEqual({
      status: 409,
      code: 'project_is_canceled',
    });
    const detach = await t.api({
      method: 'DELETE',
      url: `${taskFilesUrl(taskId, canceled)}/${file.id}`,
      cookie: consultant(),
    });
    expect({ status: detach.statusCode, code: detach.json().code }).toEqual({
      status: 409,
      code: 'project_is_canceled',
    });
    for (const [method, payload] of [
      ['PATCH', { name: 'x.pdf' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.api({ method, url: fileUrl(file.id, canceled), cookie: consultant(), payload });
      expect({ method, status: res.statusCode, code: res.json().code }).toEqual({
        method,
        status: 409,
        code: 'project_is_canceled',
      });
    }
  });
});

describe('GET /api/v1/companies/:id/files (documents)', () => {
  const documents = async (query: string, cookie = consultant(), company = acmeId) => {
    const res = await t.api({ method: 'GET', url: `/api/v1/companies/${company}/files?${query}`, cookie });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
    return res.json() as DocumentList;
  };

  it('lists the files of the company projects with their project and folder path, searchable by name and project title', async () => {
    const evidence = await createFolder(t, consultant(), projectId, root.id, 'Docs evidence');
    const q1 = await createFolder(t, consultant(), projectId, evidence.id, 'Q1');
    const file = await put('Quarterly access review.pdf', PDF, {}, q1.id);
    const found = await documents('search=quarterly ACCESS');
    expect(found.results).toEqual([
      expect.objectContaining({
        id: file.id,
        name: 'Quarterly access review.pdf',
        project: { id: projectId, title: expect.stringMatching(/^Files test project/) },
        folderPath: 'Docs evidence / Q1',
      }),
    ]);
    const byTitle = await documents(`search=${encodeURIComponent('Files other project')}`);
    expect(byTitle.results.length).toBeGreaterThan(0);
    expect(byTitle.results.every((r) => r.project.id === otherProjectId)).toBe(true);
    const inRoot = (await documents(`projectId=${projectId}&search=Policy.pdf`)).results[0];
    expect(inRoot.folderPath).toBe('');
  });

  it('filters by project, sorts (newest first by default) and pages', async () => {
    const all = await documents(`projectId=${projectId}&pageSize=200`);
    expect(all.total).toBeGreaterThan(3);
    expect(all.results.every((r) => r.project.id === projectId)).toBe(true);
    const dates = all.results.map((r) => r.updatedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page2 = await documents(`projectId=${projectId}&pageSize=2&page=2&sort=name`);
    const byName = await documents(`projectId=${projectId}&pageSize=200&sort=name`);
    expect(page2.results.map((r) => r.id)).toEqual(byName.results.slice(2, 4).map((r) => r.id));
    // the seeded demo files of the company's projects are listed too
    const seeded = await documents('search=Information Security Policy');
    expect(seeded.total).toBeGreaterThanOrEqual(2);
  });

  it('shows auditors only the files of projects where they hold a role, and answers 404 to another company', async () => {
    // an auditor sees a company through the projects where they hold a role, and only those projects' files
    await addProjectMember(t.database.db, otherProjectId, userIds['auditor@demo.test'], 'Consultant');
    await upload(
      t,
      consultant(),
      otherProjectId,
      (await rootOf(t, consultant(), otherProjectId)).id,
      'For the auditor.pdf',
    );
    const auditor = await documents('pageSize=200', cookies['auditor@demo.test']);
    expect(auditor.results.length).toBeGreaterThan(0);
    expect(new Set(auditor.results.map((r) => r.project.id))).toEqual(new Set([otherProjectId]));
    expect((await documents(`projectId=${projectId}`, cookies['auditor@demo.test'])).total).toBe(0);
    const globex = await documents('pageSize=200', cookies['auditor@demo.test'], globexId);
    expect(globex.results.length).toBeGreaterThan(0);
    expect(new Set(globex.results.map((r) => r.project.title))).toEqual(new Set(['Globex HIPAA Risk Assessment']));
    const res = await t.api({ method: 'GET', url: `/api/v1/companies/${acmeId}/files`, cookie: outsider() });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'company_not_found' });
    const bad = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${acmeId}/files?sort=owner`,
      cookie: consultant(),
    });
    expect({ status: bad.statusCode, field: bad.json().details?.[0]?.field }).toEqual({ status: 400, field: 'sort' });
  });
});

describe('the demo files', () => {
  it('are stored, readable by the project team and downloadable', async () => {
    const list = await documents('search=Information Security Policy', lead());
    const policy = list.results.find((r) => r.project.title === 'Acme SOC 2 Type II 2026')!;
    expect(policy).toMatchObject({
      version: 2,
      versionCount: 2,
      contentType: 'application/pdf',
      folderPath: 'Policies',
    });
    const signed = (await signedUrl(policy.id, lead())).json() as SignedUrl;
    const content = await t.api({ method: 'GET', url: signed.url, cookie: lead() });
    expect(content.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  async function documents(query: string, cookie: string) {
    return (
      await t.api({ method: 'GET', url: `/api/v1/companies/${acmeId}/files?${query}`, cookie })
    ).json() as DocumentList;
  }
});
