import { FOLDER_MAX_DEPTH, type Folder } from '@portal/shared/core/files';
import type { Project } from '@portal/shared/core/projects';
import { createTestApp, type TestApp } from '../../../../test/app';
import {
  PDF,
  blobExists,
  blobsOnDisk,
  createFolder,
  folders,
  rootOf,
  setProjectStatus,
  storageKeysOf,
  upload,
  uploadRaw,
} from '../../../../test/project-file-fixtures';
import { acmeProjectsSetup, auditRows, insertTask, newActiveProject } from '../../../../test/project-fixtures';

let t: TestApp;
let acmeId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** Acme project: consultant is Lead Consultant, lead@acme.test Client Lead; member@acme.test holds no role. */
let projectId: string;
let otherProjectId: string;
let root: Folder;

beforeAll(async () => {
  t = await createTestApp();
  ({ acmeId, userIds, cookies, projectId, otherProjectId } = await acmeProjectsSetup(
    t,
    ['Folders test project', 'Folders other project'],
    ['consultant@demo.test', 'lead@acme.test', 'member@acme.test', 'client@globex.test'],
  ));
  root = await rootOf(t, consultant(), projectId);
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];

const foldersUrl = (project = projectId) => `/api/v1/projects/${project}/folders`;
const folderUrl = (folderId: string, project = projectId) => `${foldersUrl(project)}/${folderId}`;
const post = (payload: object, cookie = consultant(), project = projectId) =>
  t.api({ method: 'POST', url: foldersUrl(project), cookie, payload });
const patch = (folderId: string, payload: object, cookie = consultant(), project = projectId) =>
  t.api({ method: 'PATCH', url: folderUrl(folderId, project), cookie, payload });
const remove = (folderId: string, cookie = consultant(), project = projectId) =>
  t.api({ method: 'DELETE', url: folderUrl(folderId, project), cookie });
const make = (parentId: string, name: string, project = projectId) =>
  createFolder(t, consultant(), project, parentId, name);

describe('the root folder', () => {
  it('comes with every project, also one created through the api, named Files with no parent', async () => {
    expect(root).toMatchObject({ projectId, parentId: null, name: 'Files' });
    const res = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${acmeId}/projects`,
      cookie: consultant(),
      payload: { title: `Root check ${Date.now()}` },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as Project;
    const list = await folders(t, consultant(), created.id);
    expect(list).toEqual([
      expect.objectContaining({
        projectId: created.id,
        parentId: null,
        name: 'Files',
        createdBy: expect.objectContaining({ email: 'consultant@demo.test' }),
      }),
    ]);
  });

  it('cannot be made again (409), deleted (400), renamed or moved (400)', async () => {
    expect((await post({ name: 'Another root', parentId: null })).json()).toMatchObject({
      code: 'root_folder_already_exist',
    });
    expect((await post({ name: 'Another root', parentId: null })).statusCode).toBe(409);
    const del = await remove(root.id);
    expect({ status: del.statusCode, code: del.json().code }).toEqual({
      status: 400,
      code: 'root_folder_cannot_be_deleted',
    });
    const child = await make(root.id, 'Root target');
    for (const payload of [{ name: 'Renamed root' }, { parentId: child.id }]) {
      const res = await patch(root.id, payload);
      expect({ payload, status: res.statusCode, code: res.json().code }).toEqual({
        payload,
        status: 400,
        code: 'forbidden_folder_action',
      });
    }
    expect((await rootOf(t, consultant(), projectId)).name).toBe('Files');
  });
});

describe('POST /api/v1/projects/:id/folders', () => {
  it('creates a folder under a parent, answers it (201) and records it', async () => {
    const folder = await make(root.id, '  Policies ');
    expect(folder).toMatchObject({
      projectId,
      parentId: root.id,
      name: 'Policies',
      createdBy: { id: userIds['consultant@demo.test'], email: 'consultant@demo.test' },
    });
    expect((await folders(t, lead(), projectId)).map((f) => f.id)).toContain(folder.id);
    const [entry] = await auditRows(t, 'folder.create', folder.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      target_type: 'folder',
      after: { projectId, parentId: root.id, name: 'Policies' },
    });
  });

  it('refuses a sibling with the same name in any case (409 naming name), but not the same name elsewhere', async () => {
    const parent = await make(root.id, 'Evidence');
    await make(parent.id, 'Q1');
    const res = await post({ name: 'q1', parentId: parent.id });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 409,
      body: { code: 'folder_already_exist', details: [{ field: 'name' }] },
    });
    await make(root.id, 'Q1');
    const clash = await post({ name: 'EVIDENCE', parentId: root.id });
    expect(clash.json().code).toBe('folder_already_exist');
  });

  it('answers 404 folder_not_found for a parent of another project or none', async () => {
    const otherRoot = await rootOf(t, consultant(), otherProjectId);
    for (const parentId of [otherRoot.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await post({ name: 'Stray', parentId });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'folder_not_found' });
    }
  });

  it(`nests folders ${FOLDER_MAX_DEPTH} deep and no deeper (400 folder_not_supported)`, async () => {
    let parent = root.id;
    for (let depth = 1; depth <= FOLDER_MAX_DEPTH; depth++) parent = (await make(parent, `Level ${depth}`)).id;
    const res = await post({ name: 'Too deep', parentId: parent });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'folder_not_supported' });
  });

  it('refuses names that are paths or empty, naming the field', async () => {
    for (const name of ['a/b', '..', '', 'c\\d']) {
      const res = await post({ name, parentId: root.id });
      expect({ name, status: res.statusCode, body: res.json() }).toMatchObject({
        name,
        status: 400,
        body: { code: 'validation_failed', details: [{ field: 'name' }] },
      });
    }
  });

  it('is for writers: a member without a role gets 403, another company 404, a canceled project 409', async () => {
    expect((await post({ name: 'Nope', parentId: root.id }, member())).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: foldersUrl(), cookie: member() })).statusCode).toBe(200);
    const outsider = await post({ name: 'Nope', parentId: root.id }, cookies['client@globex.test']);
    expect({ status: outsider.statusCode, code: outsider.json().code }).toEqual({
      status: 404,
      code: 'project_not_found',
    });
    const list = await t.api({ method: 'GET', url: foldersUrl(), cookie: cookies['client@globex.test'] });
    expect(list.statusCode).toBe(404);
    const canceled = await newActiveProject(t, acmeId, 'Folders canceled', [
      [userIds['consultant@demo.test'], 'Lead Consultant'],
    ]);
    const canceledRoot = await rootOf(t, consultant(), canceled);
    await setProjectStatus(t, canceled, 'canceled');
    const res = await post({ name: 'Frozen', parentId: canceledRoot.id }, consultant(), canceled);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 409, code: 'project_is_canceled' });
  });
});

describe('PATCH /api/v1/projects/:id/folders/:folderId', () => {
  it('renames and moves a folder, and records each', async () => {
    const a = await make(root.id, 'Move A');
    const b = await make(root.id, 'Move B');
    const res = await patch(a.id, { name: 'Moved A', parentId: b.id });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 200,
      body: { id: a.id, name: 'Moved A', parentId: b.id },
    });
    expect((await auditRows(t, 'folder.rename', a.id))[0]).toMatchObject({
      before: { name: 'Move A' },
      after: { name: 'Moved A' },
    });
    expect((await auditRows(t, 'folder.move', a.id))[0]).toMatchObject({
      before: { parentId: root.id },
      after: { parentId: b.id },
    });
  });

  it('refuses a move into the folder itself or one of its subfolders (400 folder_cannot_be_moved_to_itself)', async () => {
    const top = await make(root.id, 'Loop top');
    const child = await make(top.id, 'Loop child');
    const grandchild = await make(child.id, 'Loop grandchild');
    for (const target of [top.id, child.id, grandchild.id]) {
      const res = await patch(top.id, { parentId: target });
      expect({ target, status: res.statusCode, code: res.json().code }).toEqual({
        target,
        status: 400,
        code: 'folder_cannot_be_moved_to_itself',
      });
    }
  });

  it('refuses a move that would nest the moved subfolders too deep (400 folder_not_supported)', async () => {
    let deep = root.id;
    for (let depth = 1; depth <= FOLDER_MAX_DEPTH - 2; depth++) deep = (await make(deep, `Deep ${depth}`)).id;
    // deep is at depth MAX-2: a folder with one subfolder fits under it, one with two levels does not.
    const fits = await make(root.id, 'Fits');
    await make(fits.id, 'Fits child');
    const tall = await make(root.id, 'Tall');
    await make((await make(tall.id, 'Tall child')).id, 'Tall grandchild');
    const refused = await patch(tall.id, { parentId: deep });
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({
      status: 400,
      code: 'folder_not_supported',
    });
    expect((await patch(fits.id, { parentId: deep })).statusCode).toBe(200);
  });

  it('refuses a name a sibling holds at the destination (409 folder_already_exist), and a parent of another project (404)', async () => {
    const dest = await make(root.id, 'Clash dest');
    await make(dest.id, 'Same');
    const mover = await make(root.id, 'SAME');
    const res = await patch(mover.id, { parentId: dest.id });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 409,
      body: { code: 'folder_already_exist', details: [{ field: 'name' }] },
    });
    const sibling = await make(root.id, 'Sibling name');
    expect((await patch(mover.id, { name: 'sibling NAME' })).json().code).toBe('folder_already_exist');
    // renaming a folder to its own name in another case is allowed
    expect((await patch(sibling.id, { name: 'SIBLING NAME' })).json()).toMatchObject({ name: 'SIBLING NAME' });
    const otherRoot = await rootOf(t, consultant(), otherProjectId);
    const foreign = await patch(mover.id, { parentId: otherRoot.id });
    expect({ status: foreign.statusCode, code: foreign.json().code }).toEqual({
      status: 404,
      code: 'folder_not_found',
    });
    const ofOther = await patch(otherRoot.id, { name: 'x' });
    expect({ status: ofOther.statusCode, code: ofOther.json().code }).toEqual({
      status: 404,
      code: 'folder_not_found',
    });
  });

  it('asks for a name or a parent, and is for writers', async () => {
    const folder = await make(root.id, 'Patch rules');
    const empty = await patch(folder.id, {});
    expect({ status: empty.statusCode, field: empty.json().details?.[0]?.field }).toEqual({
      status: 400,
      field: 'name',
    });
    expect((await patch(folder.id, { name: 'By member' }, member())).statusCode).toBe(403);
    expect((await patch(folder.id, { name: 'By lead' }, lead())).statusCode).toBe(200);
  });
});

describe('DELETE /api/v1/projects/:id/folders/:folderId', () => {
  it('removes the folder with its subfolders, files, versions and task links, and the bytes after commit', async () => {
    const top = await make(root.id, 'Delete me');
    const sub = await make(top.id, 'Delete sub');
    const a = await upload(t, consultant(), projectId, top.id, 'a.pdf');
    await upload(t, consultant(), projectId, top.id, 'a.pdf', undefined, { onConflict: 'version' });
    const doneTask = await insertTask(t, projectId, { status: 'COMPLETED' });
    const b = await upload(t, consultant(), projectId, sub.id, 'b.pdf', undefined, { taskId: doneTask });
    const keys = [...(await storageKeysOf(t, a.id)), ...(await storageKeysOf(t, b.id))];
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(blobExists(t, key)).toBe(true);

    const res = await remove(top.id);
    expect(res.statusCode).toBe(204);
    const ids = (await folders(t, consultant(), projectId)).map((f) => f.id);
    expect(ids).not.toContain(top.id);
    expect(ids).not.toContain(sub.id);
    const db = t.database.db;
    expect(await db.selectFrom('files').select('id').where('id', 'in', [a.id, b.id]).execute()).toEqual([]);
    expect(await db.selectFrom('file_versions').select('id').where('file_id', 'in', [a.id, b.id]).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('task_files').select('file_id').where('task_id', '=', doneTask).execute()).toEqual([]);
    for (const key of keys) expect(blobExists(t, key)).toBe(false);
    expect((await auditRows(t, 'folder.delete', top.id))[0]).toMatchObject({
      before: { name: 'Delete me', folders: 2, files: 2 },
    });
  });

  it('refuses while a file inside is on a task that is not done (409 folder_project_has_open_tasks), and keeps everything', async () => {
    const top = await make(root.id, 'Open work');
    const sub = await make(top.id, 'Open sub');
    const openTask = await insertTask(t, projectId, { status: 'IN_REVIEW' });
    const file = await upload(t, consultant(), projectId, sub.id, 'evidence.pdf', undefined, { taskId: openTask });
    const res = await remove(top.id);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({
      status: 409,
      code: 'folder_project_has_open_tasks',
    });
    expect((await folders(t, consultant(), projectId)).map((f) => f.id)).toEqual(
      expect.arrayContaining([top.id, sub.id]),
    );
    for (const key of await storageKeysOf(t, file.id)) expect(blobExists(t, key)).toBe(true);
    // once the task is done, the folder goes
    await t.database.db.updateTable('tasks').set({ status: 'NOT_APPLICABLE' }).where('id', '=', openTask).execute();
    expect((await remove(top.id)).statusCode).toBe(204);
  });

  it('answers 404 for a folder of another project, 403 to a member without a role', async () => {
    const otherFolder = await make((await rootOf(t, consultant(), otherProjectId)).id, 'Elsewhere', otherProjectId);
    const res = await remove(otherFolder.id);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'folder_not_found' });
    expect((await remove(otherFolder.id, member(), otherProjectId)).statusCode).toBe(403);
    expect((await remove(otherFolder.id, cookies['client@globex.test'], otherProjectId)).statusCode).toBe(404);
  });
});

describe("concurrent writes to a project's folders", () => {
  /** Every folder reaches the root through its parents (no loop). */
  async function treeIsSound(): Promise<void> {
    const list = await folders(t, consultant(), projectId);
    const parentOf = new Map(list.map((f) => [f.id, f.parentId]));
    for (const folder of list) {
      let at: string | null | undefined = folder.id;
      for (let steps = 0; at && steps <= list.length; steps++) at = parentOf.get(at);
      expect({ folder: folder.name, loops: at !== null }).toEqual({ folder: folder.name, loops: false });
    }
  }

  it('moves two folders into each other at once: one move wins, the other is refused, and no loop is left', async () => {
    for (let round = 0; round < 20; round++) {
      const a = await make(root.id, `Swap A ${round}`);
      const b = await make(root.id, `Swap B ${round}`);
      const replies = await Promise.all([patch(a.id, { parentId: b.id }), patch(b.id, { parentId: a.id })]);
      const outcome = replies
        .map((r) => ({ status: r.statusCode, code: r.statusCode === 200 ? null : r.json().code }))
        .sort((x, y) => x.status - y.status);
      expect({ round, outcome }).toEqual({
        round,
        outcome: [
          { status: 200, code: null },
          { status: 400, code: 'folder_cannot_be_moved_to_itself' },
        ],
      });
    }
    await treeIsSound();
    // The documents list walks every folder's path.
    expect(
      (await t.api({ method: 'GET', url: `/api/v1/companies/${acmeId}/files`, cookie: consultant() })).statusCode,
    ).toBe(200);
  });

  it('answers a write racing the delete of its folder with its result or 404, never 500, and keeps no bytes without a row', async () => {
    const taskId = await insertTask(t, projectId, { status: 'COMPLETED' });
    const before = new Set(blobsOnDisk(t).committed);
    for (let round = 0; round < 8; round++) {
      const doomed = await make(root.id, `Doomed ${round}`);
      const inside = await upload(t, consultant(), projectId, doomed.id, `inside-${round}.pdf`);
      const outside = await upload(t, consultant(), projectId, root.id, `outside-${round}.pdf`);
      const replies = await Promise.all([
        remove(doomed.id),
        uploadRaw(t, consultant(), projectId, { folderId: doomed.id }, { filename: `late-${round}.pdf`, data: PDF }),
        post({ name: `Late ${round}`, parentId: doomed.id }),
        t.api({
          method: 'PATCH',
          url: `/api/v1/projects/${projectId}/files/${outside.id}`,
          cookie: consultant(),
          payload: { folderId: doomed.id },
        }),
        t.api({
          method: 'POST',
          url: `/api/v1/projects/${projectId}/tasks/${taskId}/files`,
          cookie: consultant(),
          payload: { fileId: inside.id },
        }),
      ]);
      const [deleted, ...writes] = replies.map((r) => ({
        status: r.statusCode,
        code: r.statusCode < 300 ? null : r.json().code,
      }));
      expect({ round, deleted }).toEqual({ round, deleted: { status: 204, code: null } });
      for (const write of writes) expect([200, 201, 404]).toContain(write.status);
      expect(
        writes
          .filter((w) => w.status === 404)
          .every((w) => w.code === 'folder_not_found' || w.code === 'file_not_found'),
      ).toBe(true);
      // Whatever won, nothing names the deleted folder any more.
      expect(
        await t.database.db.selectFrom('folders').select('id').where('parent_id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(await t.database.db.selectFrom('files').select('id').where('folder_id', '=', doomed.id).execute()).toEqual(
        [],
      );
    }
    const named = new Set(
      (await t.database.db.selectFrom('file_versions').select('storage_key').execute()).map((r) => r.storage_key),
    );
    const added = blobsOnDisk(t).committed.filter((key) => !before.has(key));
    expect(added.filter((key) => !named.has(key))).toEqual([]);
    await treeIsSound();
  });
});
