/**
 * The report operations (base /api/v1), each described once (see ../contract.ts): the api registers
 * its routes from them and the web infers its calls' types from them. The rules (scope, period,
 * which module each report needs, the files) are in index.ts.
 */
import { defineOperation } from '../contract';
import { reportFileQuerySchema, reportQuerySchema } from './index';
import { report, reportOptions } from './results';

const REPORTS = '/api/v1/companies/:id/reports';
const member = { company: 'member', module: 'reports' } as const;

export const getReportOptions = defineOperation({
  method: 'GET',
  url: `${REPORTS}/options`,
  summary: 'List the reports the caller may see and the projects to filter them by',
  tag: 'Reports',
  policy: member,
  responses: { 200: 'the report kinds and projects' },
  result: reportOptions,
});

/** Every report the caller's modules allow (none: 403 `module_access_denied`). */
export const getReportPdf = defineOperation({
  method: 'GET',
  url: `${REPORTS}/pdf`,
  summary: 'Download every report the caller may see as one PDF',
  tag: 'Reports',
  policy: member,
  query: reportQuerySchema,
  responses: { 200: 'the PDF' },
  produces: ['application/pdf'],
});

/** An unknown `:kind` is 404 `not_found`; one the caller's modules do not allow, 403 `module_access_denied`. */
export const getReport = defineOperation({
  method: 'GET',
  url: `${REPORTS}/:kind`,
  summary: 'Get a report (status, requests, controls or workload)',
  tag: 'Reports',
  policy: member,
  query: reportQuerySchema,
  responses: { 200: 'the report' },
  result: report,
});

/** `:kind` as for getReport. */
export const exportReport = defineOperation({
  method: 'GET',
  url: `${REPORTS}/:kind/export`,
  summary: 'Download a report as a spreadsheet',
  tag: 'Reports',
  policy: member,
  query: reportFileQuerySchema,
  responses: { 200: 'the report file' },
  produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
});
