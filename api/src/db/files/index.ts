/**
 * A project's files (issue 6). A file row carries its current version's type, size and uploader (kept
 * in step by the writes here), so lists need no join to the versions but for the hash and number. By
 * concern: records.ts (a file's own row: lookups, renames and moves, deletion), versions.ts (uploads
 * and versions), listing.ts (files as the api shows them, a folder's files, one file's detail),
 * task-files.ts (files on tasks) and documents.ts (the company's documents); internal.ts holds the
 * sorting they share. This file names what the rest of the api may use.
 */
export { listCompanyFiles, type DocumentListQuery } from './documents';
export { type FileSort } from './internal';
export { filesByIds, findFileDetail, findProjectFile, listFolderFiles, type FileListQuery } from './listing';
export { deleteFiles, findFile, findFileAnywhere, findFileByName, updateFile, type FileRecord } from './records';
export { attachTaskFile, detachTaskFile, listTaskFiles, taskFileAttached } from './task-files';
export { addFileVersion, findFileVersion, insertFileWithVersion, type NewVersion } from './versions';
