/** What the files operations answer (project files and their versions), as zod schemas (see projects/results.ts). */
import { z } from 'zod';
import { count, id, page, timestamp } from '../answers';

export const fileUser = z.strictObject({ id, name: z.string(), email: z.string() });

export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

export const projectFile = z.strictObject({
  id,
  projectId: id,
  folderId: id,
  name: z.string().min(1),
  contentType: z.string().min(1),
  size: count,
  sha256,
  version: z.number().int().min(1),
  versionCount: z.number().int().min(1),
  uploadedBy: fileUser.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  taskCount: count,
});

export const fileList = z.strictObject({ results: z.array(projectFile), ...page });

export const fileDetail = projectFile.extend({
  versions: z.array(
    z.strictObject({
      id,
      fileId: id,
      version: z.number().int().min(1),
      size: count,
      sha256,
      contentType: z.string().min(1),
      uploadedBy: fileUser.nullable(),
      createdAt: timestamp,
    }),
  ),
  tasks: z.array(z.strictObject({ id, title: z.string(), referenceId: z.string().nullable() })),
});
