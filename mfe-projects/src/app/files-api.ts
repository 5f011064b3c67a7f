/**
 * The project files calls, injected into the portal's one RTK Query api (endpoint names start with
 * `files`). The contract is shared/src/core/files. Uploads are not here: they need progress and
 * cancel, which fetch lacks (app/upload.ts); after one the caller invalidates FILE_CHANGES.
 */
import { portalApi } from '@portal/shared/web/api';
import type {
  DocumentList,
  DocumentsQuery,
  FileDetail,
  FileList,
  FilesQuery,
  FileUpdate,
  Folder,
  FolderCreate,
  FolderUpdate,
  ProjectFile,
  TaskFile,
} from '@portal/shared/core/files';

const enc = encodeURIComponent;
const projectUrl = (projectId: string) => `/projects/${enc(projectId)}`;
const fileUrl = (projectId: string, fileId: string) => `${projectUrl(projectId)}/files/${enc(fileId)}`;
const taskFilesUrl = (projectId: string, taskId: string) => `${projectUrl(projectId)}/tasks/${enc(taskId)}/files`;

const api = portalApi.enhanceEndpoints({ addTagTypes: ['Folders', 'Files', 'FileDetail', 'TaskFiles'] });

/** What a change to a file makes stale: folder lists, its detail (versions, tasks) and the tasks' file lists. */
export const FILE_CHANGES = ['Files', 'FileDetail', 'TaskFiles'] as const;
/** Deleting a folder removes its subfolders and their files too. */
const FOLDER_REMOVAL = ['Folders', ...FILE_CHANGES] as const;

export const filesApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---- folders
    /** Every folder of the project, flat (the root has parentId null). */
    filesFolders: build.query<Folder[], string>({
      query: (projectId) => `${projectUrl(projectId)}/folders`,
      transformResponse: (body: { results: Folder[] }) => body.results,
      providesTags: ['Folders'],
    }),
    filesFolderCreate: build.mutation<Folder, { projectId: string; body: FolderCreate }>({
      query: ({ projectId, body }) => ({ url: `${projectUrl(projectId)}/folders`, method: 'POST', body }),
      invalidatesTags: ['Folders'],
    }),
    filesFolderUpdate: build.mutation<Folder, { projectId: string; folderId: string; body: FolderUpdate }>({
      query: ({ projectId, folderId, body }) => ({
        url: `${projectUrl(projectId)}/folders/${enc(folderId)}`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['Folders'],
    }),
    filesFolderDelete: build.mutation<void, { projectId: string; folderId: string }>({
      query: ({ projectId, folderId }) => ({
        url: `${projectUrl(projectId)}/folders/${enc(folderId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: [...FOLDER_REMOVAL],
    }),

    // ---- files
    /** One folder's files (the root when folderId is absent), a page at a time. */
    filesList: build.query<FileList, { projectId: string } & FilesQuery>({
      query: ({ projectId, ...params }) => ({ url: `${projectUrl(projectId)}/files`, params }),
      providesTags: ['Files'],
    }),
    filesGet: build.query<FileDetail, { projectId: string; fileId: string }>({
      query: ({ projectId, fileId }) => fileUrl(projectId, fileId),
      providesTags: ['FileDetail'],
    }),
    filesUpdate: build.mutation<ProjectFile, { projectId: string; fileId: string; body: FileUpdate }>({
      query: ({ projectId, fileId, body }) => ({ url: fileUrl(projectId, fileId), method: 'PATCH', body }),
      invalidatesTags: [...FILE_CHANGES],
    }),
    filesDelete: build.mutation<void, { projectId: string; fileId: string }>({
      query: ({ projectId, fileId }) => ({ url: fileUrl(projectId, fileId), method: 'DELETE' }),
      invalidatesTags: [...FILE_CHANGES],
    }),

    /** Files of one project across all its folders, by name (the task page's picker; the company's documents call). */
    filesProjectSearch: build.query<
      DocumentList,
      { companyId: string; projectId: string } & Omit<DocumentsQuery, 'projectId'>
    >({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/files`, params }),
      // each row names its folder's path: renaming or moving a folder changes it
      providesTags: ['Files', 'Folders'],
    }),

    // ---- files on tasks
    filesOfTask: build.query<TaskFile[], { projectId: string; taskId: string }>({
      query: ({ projectId, taskId }) => taskFilesUrl(projectId, taskId),
      transformResponse: (body: { results: TaskFile[] }) => body.results,
      providesTags: ['TaskFiles'],
    }),
    filesTaskAttach: build.mutation<TaskFile, { projectId: string; taskId: string; fileId: string }>({
      query: ({ projectId, taskId, fileId }) => ({
        url: taskFilesUrl(projectId, taskId),
        method: 'POST',
        body: { fileId },
      }),
      // the file's taskCount changes too
      invalidatesTags: [...FILE_CHANGES],
    }),
    filesTaskDetach: build.mutation<void, { projectId: string; taskId: string; fileId: string }>({
      query: ({ projectId, taskId, fileId }) => ({
        url: `${taskFilesUrl(projectId, taskId)}/${enc(fileId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: [...FILE_CHANGES],
    }),
  }),
});
