/**
 * The files operations (base /api/v1), each described once (see ../contract.ts): project folders and
 * files, files on tasks, signed downloads, safe transfers and a portal message's files. The api
 * registers its routes from them and the web infers its calls' types from them. The rules behind the
 * policies and the errors are in index.ts.
 */
import { z } from 'zod';
import { defineOperation } from '../contract';
import {
  fileUpdateSchema,
  filesQuerySchema,
  folderCreateSchema,
  folderUpdateSchema,
  signedUrlQuerySchema,
  taskFileAttachSchema,
  transferFieldsSchema,
  transfersQuerySchema,
  uploadFieldsSchema,
} from './index';
import {
  fileDetail,
  fileList,
  folder,
  folders,
  projectFile,
  signedUrl,
  systemSettingFiles,
  taskFile,
  taskFiles,
  transfer,
  transferList,
  transferRecipients,
} from './results';

const FILES = '/api/v1/projects/:id/files';
const FILE = '/api/v1/projects/:id/files/:fileId';
const TASK_FILES = '/api/v1/projects/:id/tasks/:taskId/files';
const FOLDERS = '/api/v1/projects/:id/folders';
const FOLDER = '/api/v1/projects/:id/folders/:folderId';
const TRANSFERS = '/api/v1/companies/:id/transfers';
const TRANSFER = '/api/v1/transfers/:id';
const SETTING_FILES = '/api/v1/system-settings/:id/files';

/** Safe Transfer lives with the projects module in the shell. */
const memberWithProjects = { company: 'member', module: 'projects' } as const;

// ---- Files

export const listFiles = defineOperation({
  method: 'GET',
  url: FILES,
  summary: "List a project's files",
  tag: 'Files',
  policy: { project: 'read' },
  query: filesQuerySchema,
  responses: { 200: 'the page of files' },
  result: fileList,
});

/** The text fields come before the file part. */
export const uploadFile = defineOperation({
  method: 'POST',
  url: FILES,
  summary: 'Upload a file to a project',
  tag: 'Files',
  policy: { project: 'write' },
  form: { fields: uploadFieldsSchema, files: { file: 'the file to store, at most UPLOAD_MAX_BYTES' } },
  responses: { 201: 'the stored file' },
  result: projectFile,
});

export const getFile = defineOperation({
  method: 'GET',
  url: FILE,
  summary: 'Get a project file with its versions',
  tag: 'Files',
  policy: { project: 'read' },
  responses: { 200: 'the file' },
  result: fileDetail,
});

export const updateFile = defineOperation({
  method: 'PATCH',
  url: FILE,
  summary: 'Rename or move a project file',
  tag: 'Files',
  policy: { project: 'write' },
  body: fileUpdateSchema,
  responses: { 200: 'the updated file' },
  result: projectFile,
});

export const deleteFile = defineOperation({
  method: 'DELETE',
  url: FILE,
  summary: 'Delete a project file',
  tag: 'Files',
  policy: { project: 'write' },
  responses: { 204: 'deleted' },
});

export const listTaskFiles = defineOperation({
  method: 'GET',
  url: TASK_FILES,
  summary: 'List the files attached to a task',
  tag: 'Files',
  policy: { project: 'read' },
  responses: { 200: 'the attached files' },
  result: taskFiles,
});

export const attachTaskFile = defineOperation({
  method: 'POST',
  url: TASK_FILES,
  summary: 'Attach a project file to a task',
  tag: 'Files',
  policy: { project: 'write' },
  body: taskFileAttachSchema,
  responses: { 201: 'the attached file' },
  result: taskFile,
});

export const detachTaskFile = defineOperation({
  method: 'DELETE',
  url: `${TASK_FILES}/:fileId`,
  summary: 'Detach a file from a task',
  tag: 'Files',
  policy: { project: 'write' },
  responses: { 204: 'detached' },
});

// ---- Folders

export const listFolders = defineOperation({
  method: 'GET',
  url: FOLDERS,
  summary: "List a project's folders",
  tag: 'Files',
  policy: { project: 'read' },
  responses: { 200: 'the folders' },
  result: folders,
});

export const createFolder = defineOperation({
  method: 'POST',
  url: FOLDERS,
  summary: 'Create a folder',
  tag: 'Files',
  policy: { project: 'write' },
  body: folderCreateSchema,
  responses: { 201: 'the created folder' },
  result: folder,
});

export const updateFolder = defineOperation({
  method: 'PATCH',
  url: FOLDER,
  summary: 'Rename or move a folder',
  tag: 'Files',
  policy: { project: 'write' },
  body: folderUpdateSchema,
  responses: { 200: 'the updated folder' },
  result: folder,
});

export const deleteFolder = defineOperation({
  method: 'DELETE',
  url: FOLDER,
  summary: 'Delete a folder with its files',
  tag: 'Files',
  policy: { project: 'write' },
  responses: { 204: 'deleted' },
});

// ---- Signed downloads

/** What GET /files/:id/signed-url signs into the link (api/src/lib/signed-urls.ts). */
const signedDownloadQuerySchema = z.object({
  v: z.string().describe('the file version'),
  u: z.string().describe('the user the link was signed for'),
  e: z
    .string()
    .regex(/^\d{1,12}$/)
    .describe('expiry, in seconds since the epoch'),
  s: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe('the signature'),
});

/** `:id` is a project file, a system-setting file or a transfer file: access is checked by its kind (else 404). */
export const getSignedUrl = defineOperation({
  method: 'GET',
  url: '/api/v1/files/:id/signed-url',
  summary: 'Get a short-lived download link for a file',
  tag: 'Files',
  policy: 'signedIn',
  query: signedUrlQuerySchema,
  responses: { 200: 'the signed url and its expiry' },
  result: signedUrl,
});

/** A file the caller may not see answers 404 and a bad link 403, both before the query's shape is looked at. */
export const downloadFile = defineOperation({
  method: 'GET',
  url: '/api/v1/files/:id/content',
  summary: 'Download a file through a signed link',
  tag: 'Files',
  policy: 'signedIn',
  query: signedDownloadQuerySchema,
  responses: { 200: "the file's bytes, as an attachment" },
  errors: {
    403: 'signed_url_invalid or signed_url_expired: the link was altered, signed for another user, or has expired',
  },
  produces: ['application/octet-stream'],
});

// ---- Transfers

export const listTransferRecipients = defineOperation({
  method: 'GET',
  url: '/api/v1/companies/:id/transfer-recipients',
  summary: 'List the users a transfer may be sent to',
  tag: 'Transfers',
  policy: memberWithProjects,
  responses: { 200: 'the recipients' },
  result: transferRecipients,
});

export const listTransfers = defineOperation({
  method: 'GET',
  url: TRANSFERS,
  summary: 'List sent or received transfers',
  tag: 'Transfers',
  policy: memberWithProjects,
  query: transfersQuerySchema,
  responses: { 200: 'the page of transfers' },
  result: transferList,
});

/** Every file is staged (streamed, size and content checked) before any field is judged. */
export const createTransfer = defineOperation({
  method: 'POST',
  url: TRANSFERS,
  summary: 'Send files to users in a secure transfer',
  tag: 'Transfers',
  policy: memberWithProjects,
  form: {
    fields: transferFieldsSchema,
    files: { files: 'the files to send, at most 10 (TRANSFER_MAX_FILES), each at most UPLOAD_MAX_BYTES' },
  },
  responses: { 201: 'the created transfer' },
  result: transfer,
});

/** Only its sender and recipients, until it expires (else 404 `transfer_not_found`). */
export const getTransfer = defineOperation({
  method: 'GET',
  url: TRANSFER,
  summary: 'Get a transfer',
  tag: 'Transfers',
  policy: 'signedIn',
  responses: { 200: 'the transfer with its files' },
  result: transfer,
});

/** Only its sender withdraws it (a recipient: 403 `forbidden`). */
export const deleteTransfer = defineOperation({
  method: 'DELETE',
  url: TRANSFER,
  summary: 'Delete a transfer',
  tag: 'Transfers',
  policy: 'signedIn',
  responses: { 204: 'deleted' },
});

// ---- A portal message's files

export const listSystemSettingFiles = defineOperation({
  method: 'GET',
  url: SETTING_FILES,
  summary: "List a portal message's files",
  tag: 'System settings',
  policy: 'staffAdmin',
  responses: { 200: 'the files' },
  result: systemSettingFiles,
});

export const addSystemSettingFiles = defineOperation({
  method: 'PATCH',
  url: SETTING_FILES,
  summary: 'Add files to a portal message',
  tag: 'System settings',
  policy: 'staffAdmin',
  form: {
    files: {
      files:
        'the files to add, at most 10 (SYSTEM_SETTING_MAX_FILES), each at most 10 MB (SYSTEM_SETTING_FILE_MAX_BYTES) and UPLOAD_MAX_BYTES',
    },
  },
  responses: { 200: "the message's files now" },
  result: systemSettingFiles,
});

export const deleteSystemSettingFile = defineOperation({
  method: 'DELETE',
  url: `${SETTING_FILES}/:fileId`,
  summary: "Delete a portal message's file",
  tag: 'System settings',
  policy: 'staffAdmin',
  responses: { 204: 'deleted' },
});
