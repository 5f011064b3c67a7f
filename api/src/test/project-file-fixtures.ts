/** Test helpers for the files and folders api tests: multipart bodies, uploads, and what storage holds. */
import fs from 'node:fs';
import path from 'node:path';
import type { Folder, ProjectFile } from '@portal/shared/core/files';
import { filesDir } from '../lib/storage';
import type { TestApp } from './app';
import { multipart as multipartBody } from './multipart';

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body: the text fields first, then the file part (`file` unless named). */
export function multipart(
  fields: Record<string, string>,
  file?: { filename: string; data: Buffer; field?: string; contentType?: string },
) {
  return multipartBody(Object.entries(fields), file ? [{ ...file, field: file.field ?? 'file' }] : []);
}

export function uploadRaw(
  t: TestApp,
  cookie: string,
  projectId: string,
  fields: Record<string, string>,
  file?: { filename: string; data: Buffer },
) {
  return t.api({ method: 'POST', url: `/api/v1/projects/${projectId}/files`, cookie, ...multipart(fields, file) });
}

/** An upload that must succeed (201), as its ProjectFile. */
export async function upload(
  t: TestApp,
  cookie: string,
  projectId: string,
  folderId: string,
  filename: string,
  data: Buffer = PDF,
  extra: Record<string, string> = {},
): Promise<ProjectFile> {
  const res = await uploadRaw(t, cookie, projectId, { folderId, ...extra }, { filename, data });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as ProjectFile;
}

export async function folders(t: TestApp, cookie: string, projectId: string): Promise<Folder[]> {
  const res = await t.api({ method: 'GET', url: `/api/v1/projects/${projectId}/folders`, cookie });
  expect(res.statusCode).toBe(200);
  return (res.json() as { results: Folder[] }).results;
}

export async function rootOf(t: TestApp, cookie: string, projectId: string): Promise<Folder> {
  const root = (await folders(t, cookie, projectId)).find((f) => f.parentId === null);
  if (!root) throw new Error('no root folder');
  return root;
}

export async function createFolder(
  t: TestApp,
  cookie: string,
  projectId: string,
  parentId: string,
  name: string,
): Promise<Folder> {
  const res = await t.api({
    method: 'POST',
    url: `/api/v1/projects/${projectId}/folders`,
    cookie,
    payload: { name, parentId },
  });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as Folder;
}

/** Every committed blob under the app's storage (staged leftovers apart), and the staged ones. */
export function blobsOnDisk(t: TestApp): { committed: string[]; staged: string[] } {
  const root = filesDir(t.config.dataDir);
  const committed: string[] = [];
  let staged: string[] = [];
  if (!fs.existsSync(root)) return { committed, staged };
  for (const entry of fs.readdirSync(root)) {
    const dir = path.join(root, entry);
    if (!fs.statSync(dir).isDirectory()) continue;
    if (entry === '.staging') staged = fs.readdirSync(dir);
    else committed.push(...fs.readdirSync(dir));
  }
  return { committed, staged };
}

/** The storage keys of a file's versions. */
export async function storageKeysOf(t: TestApp, fileId: string): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('file_versions')
    .select('storage_key')
    .where('file_id', '=', fileId)
    .orderBy('version')
    .execute();
  return rows.map((r) => r.storage_key);
}

export function blobExists(t: TestApp, key: string): boolean {
  return fs.existsSync(path.join(filesDir(t.config.dataDir), key.slice(0, 2), key));
}

export async function setProjectStatus(t: TestApp, projectId: string, status: string): Promise<void> {
  await t.database.db.updateTable('projects').set({ status }).where('id', '=', projectId).execute();
}
