/**
 * What the files operations answer (project folders and files with their versions, files on tasks,
 * signed downloads, safe transfers, a portal message's files), as zod schemas: the api serializes its
 * answers with them, the OpenAPI document shows them and the web's types are inferred from them
 * (index.ts).
 */
import { z } from 'zod';
import { count, id, page, timestamp } from '../answers';

export const fileUser = z.strictObject({ id, name: z.string(), email: z.string() });

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

// ---------------------------------------------------------------------------------------------
// Folders

export const folder = z.strictObject({
  id,
  projectId: id,
  parentId: id.nullable(),
  name: z.string().min(1),
  createdAt: timestamp,
  createdBy: fileUser.nullable(),
});

export const folders = z.strictObject({ results: z.array(folder) });

// ---------------------------------------------------------------------------------------------
// Files and versions

export const projectFile = z.strictObject({
  id,
  projectId: id,
  folderId: id,
  name: z.string().min(1),
  /** Of the current (newest) version. */
  contentType: z.string().min(1),
  size: count,
  sha256,
  version: z.number().int().min(1),
  versionCount: z.number().int().min(1),
  /** Who uploaded the current version. */
  uploadedBy: fileUser.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** How many tasks it is attached to. */
  taskCount: count,
});

export const fileList = z.strictObject({ results: z.array(projectFile), ...page });

export const fileVersion = z.strictObject({
  id,
  fileId: id,
  /** 1, 2, 3… */
  version: z.number().int().min(1),
  size: count,
  sha256,
  contentType: z.string().min(1),
  uploadedBy: fileUser.nullable(),
  createdAt: timestamp,
});

export const fileDetail = projectFile.extend({
  /** Newest first. */
  versions: z.array(fileVersion),
  tasks: z.array(z.strictObject({ id, title: z.string(), referenceId: z.string().nullable() })),
});

// ---------------------------------------------------------------------------------------------
// Files on tasks

export const taskFile = projectFile.extend({ attachedAt: timestamp, attachedBy: fileUser.nullable() });

export const taskFiles = z.strictObject({ results: z.array(taskFile) });

// ---------------------------------------------------------------------------------------------
// Signed downloads

export const signedUrl = z.strictObject({
  /** Path and query on the portal's origin (`/api/v1/files/:id/content?...`). */
  url: z.string().startsWith('/api/v1/files/'),
  expiresAt: timestamp,
  name: z.string().min(1),
});

// ---------------------------------------------------------------------------------------------
// Safe transfer

export const transferUser = fileUser.extend({
  /** Staff of the portal, or a member of the company. */
  staff: z.boolean(),
});

export const transferRecipients = z.strictObject({ results: z.array(transferUser) });

export const transferDownload = z.strictObject({ user: fileUser.nullable(), at: timestamp });

export const transferFile = z.strictObject({
  id,
  name: z.string().min(1),
  size: count,
  contentType: z.string().min(1),
  sha256,
  /** Only the sender sees who downloaded; recipients see their own downloads. */
  downloads: z.array(transferDownload),
});

export const transfer = z.strictObject({
  id,
  companyId: id,
  sender: fileUser.nullable(),
  recipients: z.array(fileUser),
  message: z.string().nullable(),
  hasPassphrase: z.boolean(),
  expiresAt: timestamp,
  createdAt: timestamp,
  files: z.array(transferFile),
});

export const transferList = z.strictObject({ results: z.array(transfer), ...page });

// ---------------------------------------------------------------------------------------------
// A portal message's (system setting's) files

export const systemSettingFile = z.strictObject({
  id,
  name: z.string().min(1),
  contentType: z.string().min(1),
  size: count,
  sha256,
  createdAt: timestamp,
});

export const systemSettingFiles = z.strictObject({ files: z.array(systemSettingFile) });
