/**
 * The evidence request operations (base /api/v1), each described once (see ../contract.ts): the api
 * registers its routes from them and the web infers its calls' types from them. The rules behind the
 * policies and the errors are in index.ts.
 */
import { defineOperation } from '../contract';
import {
  requestBulkSchema,
  requestCommentSchema,
  requestCreateSchema,
  requestFileFormatSchema,
  requestsExportQuerySchema,
  requestsQuerySchema,
  requestTransitionSchema,
  requestUpdateSchema,
} from './index';
import {
  requestAssigneeOptions,
  requestBulkResult,
  requestComment,
  requestCommentList,
  requestDetail,
  requestFileList,
  requestHistory,
  requestImportResult,
  requestList,
} from './results';

const COMPANY_REQUESTS = '/api/v1/companies/:id/requests';
const REQUEST = '/api/v1/requests/:id';
const member = { company: 'member', module: 'requests' } as const;
const SPREADSHEET = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];

// ---- A company's requests

export const listRequests = defineOperation({
  method: 'GET',
  url: COMPANY_REQUESTS,
  summary: "List a company's evidence requests",
  tag: 'Requests',
  policy: member,
  query: requestsQuerySchema,
  responses: { 200: 'the page of requests' },
  result: requestList,
});

/** Staff who manage requests only (else 403 `forbidden`, before the body is read). */
export const createRequest = defineOperation({
  method: 'POST',
  url: COMPANY_REQUESTS,
  summary: 'Create an evidence request',
  tag: 'Requests',
  policy: member,
  body: requestCreateSchema,
  responses: { 201: 'the created request' },
  result: requestDetail,
});

export const listRequestAssigneeOptions = defineOperation({
  method: 'GET',
  url: `${COMPANY_REQUESTS}/assignees`,
  summary: 'List the users and teams a request may be assigned to',
  tag: 'Requests',
  policy: member,
  responses: { 200: 'the assignee options' },
  result: requestAssigneeOptions,
});

/** Staff who manage requests only (else 403 `forbidden`, before the body is read). */
export const bulkUpdateRequests = defineOperation({
  method: 'POST',
  url: `${COMPANY_REQUESTS}/bulk`,
  summary: 'Assign, set the due date of, or change the status of several requests at once',
  tag: 'Requests',
  policy: member,
  body: requestBulkSchema,
  responses: { 200: 'the number of requests updated' },
  result: requestBulkResult,
});

/** Staff who manage requests only (else 403 `forbidden`); all or nothing. */
export const importRequests = defineOperation({
  method: 'POST',
  url: `${COMPANY_REQUESTS}/import`,
  summary: 'Import requests from a file (all or nothing)',
  tag: 'Requests',
  policy: member,
  form: { files: { file: 'a requests file (.csv or .xlsx), at most 20 MB (TASK_TRACKER_MAX_BYTES)' } },
  responses: { 201: 'the counts and references of the created requests' },
  result: requestImportResult,
});

/** The requests the list shows the caller with these filters and this sort, every page (at most REQUEST_EXPORT_MAX_ROWS). */
export const exportRequests = defineOperation({
  method: 'GET',
  url: `${COMPANY_REQUESTS}/export`,
  summary: 'Download the filtered requests as a file',
  tag: 'Requests',
  policy: member,
  query: requestsExportQuerySchema,
  responses: { 200: 'the requests file' },
  produces: SPREADSHEET,
});

/** The import's columns with two example rows. */
export const getRequestFileTemplate = defineOperation({
  method: 'GET',
  url: `${COMPANY_REQUESTS}/file-template`,
  summary: 'Download an empty requests file',
  tag: 'Requests',
  policy: member,
  query: requestFileFormatSchema,
  responses: { 200: 'the template file' },
  produces: SPREADSHEET,
});

// ---- One request

export const getRequest = defineOperation({
  method: 'GET',
  url: REQUEST,
  summary: 'Get an evidence request',
  tag: 'Requests',
  policy: { request: 'read' },
  responses: { 200: 'the request' },
  result: requestDetail,
});

export const updateRequest = defineOperation({
  method: 'PATCH',
  url: REQUEST,
  summary: 'Update an evidence request',
  tag: 'Requests',
  policy: { request: 'manage' },
  body: requestUpdateSchema,
  responses: { 200: 'the updated request' },
  result: requestDetail,
});

/** Readers reach it; then submit needs respond, the other actions manage (else 403 `forbidden`). */
export const transitionRequest = defineOperation({
  method: 'POST',
  url: `${REQUEST}/transitions`,
  summary: 'Move a request to another status',
  tag: 'Requests',
  policy: { request: 'read' },
  body: requestTransitionSchema,
  responses: { 200: 'the updated request' },
  result: requestDetail,
});

export const listRequestHistory = defineOperation({
  method: 'GET',
  url: `${REQUEST}/history`,
  summary: "List a request's history",
  tag: 'Requests',
  policy: { request: 'read' },
  responses: { 200: 'the history events' },
  result: requestHistory,
});

export const listRequestComments = defineOperation({
  method: 'GET',
  url: `${REQUEST}/comments`,
  summary: "List a request's comments",
  tag: 'Requests',
  policy: { request: 'read' },
  responses: { 200: 'the comments' },
  result: requestCommentList,
});

/** Anyone who sees the request comments; `internal` ones only staff who manage (else 403 `forbidden`). */
export const createRequestComment = defineOperation({
  method: 'POST',
  url: `${REQUEST}/comments`,
  summary: 'Comment on a request',
  tag: 'Requests',
  policy: { request: 'read' },
  body: requestCommentSchema,
  responses: { 201: 'the created comment' },
  result: requestComment,
});

/** Respond or manage (else 403 `forbidden`), while the request is open or returned (else 409). */
export const addRequestFiles = defineOperation({
  method: 'POST',
  url: `${REQUEST}/files`,
  summary: 'Add evidence files to a request',
  tag: 'Requests',
  policy: { request: 'read' },
  form: {
    files: { files: 'the evidence files, at most 20 (REQUEST_UPLOAD_MAX_FILES), each at most UPLOAD_MAX_BYTES' },
  },
  responses: { 201: 'the added files' },
  result: requestFileList,
});

/** Its uploader (respond) or a manager (else 403 `forbidden`), while the request is open or returned (else 409). */
export const deleteRequestFile = defineOperation({
  method: 'DELETE',
  url: `${REQUEST}/files/:fileId`,
  summary: 'Remove an evidence file from a request',
  tag: 'Requests',
  policy: { request: 'read' },
  responses: { 204: 'removed' },
});
