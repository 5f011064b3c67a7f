/** Result schemas (see index.ts) of projects, tasks, controls, files and evidence requests. */
import { z } from 'zod';
import { assertSame, type Same } from './common';
import {
  companyTaskPage,
  controlDetail,
  controlList,
  project,
  projectList,
  projectsSummary,
  taskDetail,
  taskList,
} from '@portal/shared/core/projects/results';
import { fileDetail, fileList } from '@portal/shared/core/files/results';
import { requestDetail, requestList } from '@portal/shared/core/requests/results';
import {
  type CompanyTaskPage,
  type ControlDetail,
  type ControlList,
  type Project,
  type ProjectList,
  type ProjectsSummary,
  type TaskDetail,
  type TaskList,
} from '@portal/shared/core/projects';
import type { FileDetail, FileList } from '@portal/shared/core/files';
import { type RequestDetail, type RequestList } from '@portal/shared/core/requests';

export {
  control,
  controlDetail,
  project,
  projectUser,
  task,
  taskDetail,
  taskList,
} from '@portal/shared/core/projects/results';
export { fileUser, projectFile, sha256 } from '@portal/shared/core/files/results';
export { requestDetail, requestSummary, requestUser } from '@portal/shared/core/requests/results';
assertSame<Same<z.output<typeof taskList>, TaskList>>();
assertSame<Same<z.output<typeof companyTaskPage>, CompanyTaskPage>>();
assertSame<Same<z.output<typeof taskDetail>, TaskDetail>>();
assertSame<Same<z.output<typeof project>, Project>>();
assertSame<Same<z.output<typeof projectList>, ProjectList>>();
assertSame<Same<z.output<typeof projectsSummary>, ProjectsSummary>>();
assertSame<Same<z.output<typeof controlList>, ControlList>>();
assertSame<Same<z.output<typeof controlDetail>, ControlDetail>>();
assertSame<Same<z.output<typeof fileList>, FileList>>();
assertSame<Same<z.output<typeof fileDetail>, FileDetail>>();
assertSame<Same<z.output<typeof requestList>, RequestList>>();
assertSame<Same<z.output<typeof requestDetail>, RequestDetail>>();

/** The success bodies of projects, tasks, controls, files and evidence requests, by operation. */
export const WORK_RESULTS: Record<string, z.ZodType> = {
  'GET /api/v1/projects/:id/tasks': taskList,
  'GET /api/v1/companies/:id/tasks': companyTaskPage,
  'GET /api/v1/projects/:id/tasks/:taskId': taskDetail,
  'GET /api/v1/companies/:id/projects': projectList,
  'GET /api/v1/companies/:id/projects/summary': projectsSummary,
  'GET /api/v1/projects/:id': project,
  'GET /api/v1/projects/:id/controls': controlList,
  'GET /api/v1/projects/:id/controls/:controlId': controlDetail,
  'GET /api/v1/projects/:id/files': fileList,
  'GET /api/v1/projects/:id/files/:fileId': fileDetail,
  'GET /api/v1/companies/:id/requests': requestList,
  'GET /api/v1/requests/:id': requestDetail,
};
