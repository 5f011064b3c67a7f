/**
 * Files (issue 6): project folders and files with versions, files on tasks, the company's documents,
 * signed downloads and safe transfers. The api validates with these schemas and the web uses the same
 * ones. Framework-free: the api imports it.
 *
 * The calls (base /api/v1) are described in api.ts, their answers in results.ts. Policies as in
 * ../projects (`project:read|write`, `member+projects`). A folder's files come a page at a time (the root's
 * when folderId is absent); an upload sends its text fields first (folderId, onConflict 'fail' | 'version',
 * taskId to attach it to that task), then one file part `file`; a new folder with parentId null asks for a
 * root (409 root_folder_already_exist: every project has one). Deleting a folder deletes its subfolders
 * and files; deleting a file deletes every version and detaches it from its tasks.
 *
 * Signed downloads: GET /files/:id/signed-url signs a link to a project file (project:read of its
 * project), a system-setting file (staff admins) or a transfer file (its sender or a recipient, with the
 * passphrase in the `X-Transfer-Passphrase` header when the transfer has one); another company's file
 * answers 404. The link serves the bytes only with a valid signature that has not expired and only to
 * the signed-in user it was signed for (403 signed_url_invalid / signed_url_expired), as
 * `Content-Disposition: attachment` with the checked type, `X-Content-Type-Options: nosniff`,
 * `Content-Security-Policy: default-src 'none'; sandbox`, never cached.
 *
 * Safe transfer: the sender and the recipients (active users of the company who may receive) see a
 * transfer until it expires (then 404); only the sender withdraws it, which removes its files. A
 * transfer sends its text fields (recipientIds repeated, message, expiresInDays, passphrase) and then
 * 1 to TRANSFER_MAX_FILES `files` parts. A portal message's files (PATCH /system-settings/:id/files)
 * share the storage, limits and content checks of project files.
 *
 * Uploads are streamed to a temporary name, checked (size, not empty, content agrees with the name, no
 * executables), then moved into place; the row commits only after the bytes are safe. Names are display
 * names only (fileDisplayName), never paths.
 *
 * Errors: 409 duplicate_filename (field file), folder_already_exist (field name), folder_file_already_exist
 * (moving or renaming a file onto a taken name), root_folder_already_exist, file_already_attached_to_task,
 * folder_project_has_open_tasks (deleting a folder whose files are on tasks that are not done);
 * 400 root_folder_cannot_be_deleted, folder_cannot_be_moved_to_itself (itself or one of its subfolders),
 * forbidden_folder_action (renaming or moving the root), folder_not_supported (nesting deeper than
 * FOLDER_MAX_DEPTH), validation_failed (field file: empty, too large, missing);
 * 415 unsupported_file_type (field file); 404 folder_not_found, file_not_found, folder_file_not_found,
 * transfer_not_found; 403 signed_url_invalid, signed_url_expired, transfer_passphrase_required,
 * transfer_passphrase_incorrect; 429 too_many_requests with Retry-After (5 wrong passphrases of a transfer
 * within 15 minutes: every try is refused until the window ends); 409 project_is_canceled (a canceled
 * project's files are frozen). Names refuse control and bidirectional characters; renaming a file keeps
 * its extension (400 validation_failed naming name). A transfer needs the projects module in its company.
 */
import { z } from 'zod';
import type { documentList } from '../projects/results';
import { hasNoNul, nulMessage, optionalText, pagingShape, requiredText } from '../settings';
import type {
  fileDetail,
  fileList,
  fileUser,
  fileVersion,
  folder,
  projectFile,
  signedUrl,
  taskFile,
  transfer,
  transferDownload,
  transferFile,
  transferList,
  transferUser,
} from './results';

export const UPLOAD_MAX_BYTES_DEFAULT = 100 * 1024 * 1024;
export const SIGNED_URL_TTL_SECONDS_DEFAULT = 300;
export const FILE_NAME_MAX = 200;
export const FOLDER_NAME_MAX = 100;
/** The root is depth 0; a folder may sit at most this deep. */
export const FOLDER_MAX_DEPTH = 8;
export const TRANSFER_MAX_FILES = 10;
export const TRANSFER_EXPIRY_DAYS = [1, 3, 7, 14, 30] as const;
export const TRANSFER_EXPIRY_DEFAULT_DAYS = 7;
export const TRANSFER_PASSPHRASE_MIN = 8;
export const TRANSFER_MESSAGE_MAX = 2000;
/** The header that carries a transfer's passphrase to GET /files/:id/signed-url (never a query: queries are logged). */
export const TRANSFER_PASSPHRASE_HEADER = 'x-transfer-passphrase';

/** Characters never kept in a name: controls and bidirectional overrides. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name as shown and offered on download, never a path: the last segment only, without control or
 * bidirectional-override characters, trimmed, at most FILE_NAME_MAX characters; `.`/`..`/empty become `file`.
 */
export function fileDisplayName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const clean = last.replace(UNSAFE_NAME_CHARACTERS, '').trim();
  const name = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  return Array.from(name).slice(0, FILE_NAME_MAX).join('');
}

/** The extension of a name, lower case, without the dot ('' when none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Human size: 0 B, 1.2 KB, 3.4 MB, 1.1 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

const nameText = (field: string, max: number) =>
  requiredText(field, max)
    .refine((v) => !/[/\\]/.test(v), `${field} must not contain / or \\`)
    .refine((v) => v !== '.' && v !== '..', `${field} must not be . or ..`)
    .refine(
      (v) => v.search(UNSAFE_NAME_CHARACTERS) === -1,
      `${field} must not contain control or direction characters`,
    );
const idText = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`)
    .refine(hasNoNul, nulMessage(field));
const searchText = () =>
  z.string().trim().max(200, 'search must be at most 200 characters').refine(hasNoNul, nulMessage('search'));

// ---------------------------------------------------------------------------------------------
// Folders

export const folderCreateSchema = z.object({
  name: nameText('name', FOLDER_NAME_MAX),
  /** null: a root (refused: every project has one). */
  parentId: idText('parentId').nullable(),
});
export type FolderCreate = z.input<typeof folderCreateSchema>;

export const folderUpdateSchema = z
  .object({ name: nameText('name', FOLDER_NAME_MAX).optional(), parentId: idText('parentId').optional() })
  .refine((v) => v.name !== undefined || v.parentId !== undefined, {
    message: 'name or parentId is required',
    path: ['name'],
  });
export type FolderUpdate = z.input<typeof folderUpdateSchema>;

export type FileUserRef = z.output<typeof fileUser>;

export type Folder = z.output<typeof folder>;

// ---------------------------------------------------------------------------------------------
// Files and versions

export const FILE_SORTS = ['name', '-name', 'updatedAt', '-updatedAt', 'size', '-size'] as const;

export const filesQuerySchema = z.object({
  ...pagingShape(25),
  folderId: idText('folderId').optional(),
  search: searchText().optional(),
  sort: z.enum(FILE_SORTS, { error: `sort must be one of ${FILE_SORTS.join(', ')}` }).default('name'),
});
export type FilesQuery = z.input<typeof filesQuerySchema>;

export const UPLOAD_CONFLICTS = ['fail', 'version'] as const;
/** The text fields of an upload (they come before the file part). */
export const uploadFieldsSchema = z.object({
  folderId: idText('folderId'),
  onConflict: z.enum(UPLOAD_CONFLICTS, { error: 'onConflict must be fail or version' }).default('fail'),
  taskId: idText('taskId').optional(),
});
export type UploadFields = z.input<typeof uploadFieldsSchema>;

export const fileUpdateSchema = z
  .object({ name: nameText('name', FILE_NAME_MAX).optional(), folderId: idText('folderId').optional() })
  .refine((v) => v.name !== undefined || v.folderId !== undefined, {
    message: 'name or folderId is required',
    path: ['name'],
  });
export type FileUpdate = z.input<typeof fileUpdateSchema>;

export type FileVersion = z.output<typeof fileVersion>;

export type ProjectFile = z.output<typeof projectFile>;

export type FileDetail = z.output<typeof fileDetail>;

export type FileList = z.output<typeof fileList>;

// ---------------------------------------------------------------------------------------------
// Files on tasks

export const taskFileAttachSchema = z.object({ fileId: idText('fileId') });
export type TaskFileAttach = z.input<typeof taskFileAttachSchema>;

export type TaskFile = z.output<typeof taskFile>;

// ---------------------------------------------------------------------------------------------
// Documents: every file of the company's projects

export const documentsQuerySchema = z.object({
  ...pagingShape(25),
  search: searchText().optional(),
  projectId: idText('projectId').optional(),
  sort: z.enum(FILE_SORTS, { error: `sort must be one of ${FILE_SORTS.join(', ')}` }).default('-updatedAt'),
});
export type DocumentsQuery = z.input<typeof documentsQuerySchema>;

export type DocumentList = z.output<typeof documentList>;

export type DocumentRow = DocumentList['results'][number];

// ---------------------------------------------------------------------------------------------
// Signed downloads

export const signedUrlQuerySchema = z.object({ versionId: idText('versionId').optional() });
export type SignedUrlQuery = z.input<typeof signedUrlQuerySchema>;

export type SignedUrl = z.output<typeof signedUrl>;

// ---------------------------------------------------------------------------------------------
// Safe transfer

export const TRANSFER_BOXES = ['received', 'sent'] as const;
export const transfersQuerySchema = z.object({
  ...pagingShape(20),
  box: z.enum(TRANSFER_BOXES, { error: 'box must be received or sent' }).default('received'),
});
export type TransfersQuery = z.input<typeof transfersQuerySchema>;

/** The text fields of a new transfer (multipart, before the `files` parts). */
export const transferFieldsSchema = z.object({
  recipientIds: z.preprocess(
    (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(idText('recipientIds'))
      .min(1, 'recipientIds must name at least one recipient')
      .max(50, 'recipientIds takes at most 50 recipients'),
  ),
  message: optionalText('message', TRANSFER_MESSAGE_MAX).optional(),
  expiresInDays: z.coerce
    .number({ error: 'expiresInDays must be a whole number' })
    .refine(
      (v) => (TRANSFER_EXPIRY_DAYS as readonly number[]).includes(v),
      `expiresInDays must be one of ${TRANSFER_EXPIRY_DAYS.join(', ')}`,
    )
    .default(TRANSFER_EXPIRY_DEFAULT_DAYS),
  passphrase: z
    .string()
    .max(200, 'passphrase must be at most 200 characters')
    .refine(hasNoNul, nulMessage('passphrase'))
    .refine(
      (v) => v === '' || v.length >= TRANSFER_PASSPHRASE_MIN,
      `passphrase must be at least ${TRANSFER_PASSPHRASE_MIN} characters`,
    )
    .optional(),
});
export type TransferFields = z.input<typeof transferFieldsSchema>;

export type TransferUser = z.output<typeof transferUser>;

export type TransferDownload = z.output<typeof transferDownload>;

export type TransferFile = z.output<typeof transferFile>;

export type Transfer = z.output<typeof transfer>;

export type TransferList = z.output<typeof transferList>;
