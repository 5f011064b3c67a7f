/**
 * Reports (issue 9; contract shared/src/core/reports): the selected company's status, requests,
 * controls and workload reports as JSON, each as a CSV or .xlsx, and the whole as a PDF. The reports
 * module guards every route (policy); each report then needs the module of what it counts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  REPORT_KINDS,
  REPORT_MAX_DAYS_AHEAD,
  REPORT_TODAY_TOLERANCE_DAYS,
  reportFileName,
  type Report,
  type ReportFilters,
  type ReportKind,
  type ReportMeta,
} from '@portal/shared/core/reports';
import * as api from '@portal/shared/core/reports/api';
import type { ProjectStatus } from '@portal/shared/core/projects';
import { moduleAccessIn } from '../../../../db/module-access';
import { requestScopeFor } from '../../../../db/request-access';
import { controlsReport } from '../../../../db/reports/controls';
import { requestsReport } from '../../../../db/reports/requests';
import { dialectOf } from '../../../../db/database';
import { addDays, dayStart, nextDay, scopeProjects, type ReportScope } from '../../../../db/reports/scope';
import { statusReport } from '../../../../db/reports/status';
import { workloadReport } from '../../../../db/reports/workload';
import type { UserRecord } from '../../../../db/users';
import { HttpError } from '../../../../lib/http-error';
import { reportPdf, withPdfSlot } from '../../../../modules/reports/report-pdf';
import { reportSpreadsheet } from '../../../../modules/reports/report-spreadsheet';
import { requireAuth } from '../../../../plugins/app/auth';
import { invalidField, route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';
import { sendAttachment } from '../../../../modules/files/attachments';

const FILE_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

/** The reports that count requests: only they need the caller's view of requests. */
const COUNTS_REQUESTS: Record<ReportKind, boolean> = { status: false, requests: true, controls: false, workload: true };

/** What the caller's modules allow of each report. */
interface Allowed {
  kinds: ReportKind[];
  requests: boolean;
}

function allowedKinds(modules: { projects?: boolean | null; requests?: boolean | null }): Allowed {
  const projects = Boolean(modules.projects);
  const requests = Boolean(modules.requests);
  const kinds = REPORT_KINDS.filter((k) => (k === 'requests' ? requests : projects));
  return { kinds, requests };
}

/** Auditors see the projects where they hold a role (as db/projects/list.ts visibleProjects has it). */
const auditorIdOf = (user: Pick<UserRecord, 'id' | 'isAuditor'>) => (user.isAuditor ? user.id : null);

function utcToday(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const daysApart = (a: string, b: string) =>
  Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

function sendFile(reply: FastifyReply, bytes: Buffer, type: keyof typeof FILE_TYPES, fileName: string) {
  return sendAttachment(reply, bytes, FILE_TYPES[type], fileName);
}

export default async function reportsRoutes(app: FastifyInstance) {
  const { db } = app;
  const dialect = dialectOf(db);

  /**
   * The scope of the filters (the query, as the schema parsed it), the reports asked for (`kindsOf`
   * picks them from what the caller has, or refuses), and the report's heading; 400/403/404 naming what
   * is wrong.
   */
  async function scopeOf(
    request: FastifyRequest,
    filters: ReportFilters,
    kindsOf: (allowed: Allowed) => ReportKind[],
  ): Promise<{ scope: ReportScope; meta: ReportMeta; kinds: ReportKind[] }> {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const serverDay = utcToday();
    if (filters.today && daysApart(filters.today, serverDay) > REPORT_TODAY_TOLERANCE_DAYS) {
      throw invalidField('today', `today must be within ${REPORT_TODAY_TOLERANCE_DAYS} day of ${serverDay}`);
    }
    const today = filters.today ?? serverDay;
    // The schema keeps the period after REPORT_EARLIEST_DAY; this keeps it out of the far future.
    const latest = addDays(today, REPORT_MAX_DAYS_AHEAD);
    for (const field of ['from', 'to'] as const) {
      const day = filters[field];
      if (day && day > latest)
        throw invalidField(field, `${field} must be at most ${REPORT_MAX_DAYS_AHEAD} days after ${today}`);
    }
    const allowed = allowedKinds(await moduleAccessIn(db, user, company));
    const kinds = kindsOf(allowed);
    const auditorId = auditorIdOf(user);
    let project: ReportMeta['project'] = null;
    if (filters.projectId) {
      const row = await scopeProjects(db, {
        companyId: company.id,
        projectId: filters.projectId,
        auditorId,
      }).executeTakeFirst();
      if (!row) throw new HttpError(404, 'project_not_found');
      project = { id: row.id, title: row.title };
    }
    const countsRequests = allowed.requests && kinds.some((kind) => COUNTS_REQUESTS[kind]);
    const scope: ReportScope = {
      companyId: company.id,
      projectId: project?.id ?? null,
      auditorId,
      from: filters.from ?? null,
      to: filters.to ?? null,
      createdFrom: filters.from ? dayStart(filters.from) : null,
      createdBefore: filters.to ? dayStart(nextDay(filters.to)) : null,
      today,
      dialect,
      requests: countsRequests ? await requestScopeFor(db, user, company.id) : null,
    };
    const meta: ReportMeta = {
      company: { id: company.id, name: company.name },
      project,
      from: scope.from,
      to: scope.to,
      today,
      generatedAt: new Date().toISOString(),
    };
    return { scope, meta, kinds };
  }

  /** The one report of the path: 404 for an unknown one, 403 when the caller's modules do not allow it. */
  const kindOf =
    (kind: string) =>
    (allowed: Allowed): ReportKind[] => {
      if (!(REPORT_KINDS as readonly string[]).includes(kind)) throw new HttpError(404, 'not_found');
      if (!allowed.kinds.includes(kind as ReportKind)) throw new HttpError(403, 'module_access_denied');
      return [kind as ReportKind];
    };

  async function build(kind: ReportKind, scope: ReportScope, meta: ReportMeta): Promise<Report> {
    switch (kind) {
      case 'status':
        return { kind, meta, ...(await statusReport(db, scope)) };
      case 'requests':
        return { kind, meta, ...(await requestsReport(db, scope)) };
      case 'controls':
        return { kind, meta, ...(await controlsReport(db, scope)) };
      case 'workload':
        // Without the requests module the scope has no requests: the report leaves them out.
        return { kind, meta, ...(await workloadReport(db, scope)) };
    }
  }

  route(app, api.getReportOptions, async (request) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { kinds } = allowedKinds(await moduleAccessIn(db, user, company));
    // No report to filter: no projects to filter by.
    if (kinds.length === 0) return { kinds, projects: [] };
    const projects = await scopeProjects(db, {
      companyId: company.id,
      projectId: null,
      auditorId: auditorIdOf(user),
    }).execute();
    return { kinds, projects: projects.map((p) => ({ id: p.id, title: p.title, status: p.status as ProjectStatus })) };
  });

  route(app, api.getReportPdf, async (request, reply) => {
    const { scope, meta, kinds } = await scopeOf(request, request.query, (allowed) => {
      if (allowed.kinds.length === 0) throw new HttpError(403, 'module_access_denied');
      return allowed.kinds;
    });
    const bytes = await withPdfSlot(async () => {
      const reports: Report[] = [];
      for (const kind of kinds) reports.push(await build(kind, scope, meta));
      return reportPdf(reports, meta);
    });
    return sendFile(reply, bytes, 'pdf', reportFileName('all', meta, 'pdf'));
  });

  route(app, api.getReport, async (request) => {
    const { scope, meta, kinds } = await scopeOf(request, request.query, kindOf(request.params.kind));
    return build(kinds[0], scope, meta);
  });

  route(app, api.exportReport, async (request, reply) => {
    const { format, ...filters } = request.query;
    const { scope, meta, kinds } = await scopeOf(request, filters, kindOf(request.params.kind));
    const [kind] = kinds;
    const report = await build(kind, scope, meta);
    return sendFile(reply, await reportSpreadsheet(report, format), format, reportFileName(kind, meta, format));
  });
}
