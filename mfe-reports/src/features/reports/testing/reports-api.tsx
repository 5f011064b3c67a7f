/** The reports page's api for its tests (options, each report, the files), sessions, and the page under test with its address. */
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Report, ReportKind, ReportMeta, ReportOptions } from '@portal/shared/core/reports';
import type { Company, User } from '@portal/shared/core/schemas';
import { AddressQuery, renderWithProviders, setupTestServer } from '@portal/shared/testing';
import { Route, Routes, useNavigate } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';
import {
  sampleControls,
  sampleMeta,
  sampleOptions,
  sampleRequests,
  sampleStatus,
  sampleWorkload,
} from '../../../testing/sample-reports';
import { ReportsPage } from '../components/reports-page';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
export const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };
export const globex: Company = {
  id: 'c2',
  name: 'Globex Inc',
  logo: null,
  modulesAccess: { ...ALL_ON, reports: false },
};
export const initech: Company = { id: 'c3', name: 'Initech', logo: null, modulesAccess: ALL_ON };

const user: User = {
  id: 'u1',
  firstName: 'Sam',
  lastName: 'Staff',
  title: null,
  email: 'sam@demo.test',
  login: 'sam@demo.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: true,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'x',
};

export const staffSession: Partial<SessionState> = {
  loggedIn: true,
  user,
  companies: [acme, globex, initech],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};

const SAMPLES: { [K in ReportKind]: (meta: ReportMeta) => Report } = {
  status: sampleStatus,
  requests: sampleRequests,
  controls: sampleControls,
  workload: sampleWorkload,
};

/** What the api holds and was asked, reset before each test. */
export interface ReportsApi {
  options: ReportOptions;
  /** `<kind>?<decoded query>` of every report call. */
  reportCalls: string[];
  /** `<path after /reports>?<decoded query>` of every file call. */
  fileCalls: string[];
  /** While set, report answers wait for it (a refetch under way). */
  hold: Promise<void> | null;
}

/** When the api computed the answer to the test's `n`th report call: a minute later each time. */
export const generatedAtOfCall = (n: number) => `2026-11-23T08:${String(n).padStart(2, '0')}:00.000Z`;

/**
 * The api for this test file, for every company: options from `api.options`; each report is the
 * sample of its kind with the meta of the call (the project's title from the options, the time from
 * generatedAtOfCall), so what the page shows tells which filters it was asked with and which answer it shows. A project missing from the options is 404
 * project_not_found, as the api says of a project the caller does not see.
 */
export function setupReportsApi() {
  const api: ReportsApi = { options: sampleOptions, reportCalls: [], fileCalls: [], hold: null };
  const file = (name: string | null) =>
    new HttpResponse('x', {
      headers: {
        'content-type': 'application/octet-stream',
        ...(name ? { 'content-disposition': `attachment; filename="${name}"` } : {}),
      },
    });
  const server = setupTestServer(
    http.get('*/api/v1/companies/:id/reports/options', () => HttpResponse.json(api.options)),
    http.get('*/api/v1/companies/:id/reports/pdf', ({ request }) => {
      api.fileCalls.push(`pdf${decodeURIComponent(new URL(request.url).search)}`);
      // no name given: the page names the file as the api would
      return file(null);
    }),
    http.get('*/api/v1/companies/:id/reports/:kind/export', ({ request, params }) => {
      const url = new URL(request.url);
      api.fileCalls.push(`${String(params.kind)}/export${decodeURIComponent(url.search)}`);
      return file(`${String(params.kind)}-from-the-api.${url.searchParams.get('format')}`);
    }),
    http.get('*/api/v1/companies/:id/reports/:kind', async ({ request, params }) => {
      const url = new URL(request.url);
      const kind = params.kind as ReportKind;
      api.reportCalls.push(`${kind}${decodeURIComponent(url.search)}`);
      const generatedAt = generatedAtOfCall(api.reportCalls.length);
      if (api.hold) await api.hold;
      const q = url.searchParams;
      const projectId = q.get('projectId');
      const project = projectId ? api.options.projects.find((p) => p.id === projectId) : null;
      if (project === undefined)
        return HttpResponse.json(apiError('project_not_found', 'Project not found'), { status: 404 });
      const meta = sampleMeta({
        project: project ? { id: project.id, title: project.title } : null,
        from: q.get('from'),
        to: q.get('to'),
        today: q.get('today') ?? '',
        generatedAt,
      });
      return HttpResponse.json(SAMPLES[kind](meta));
    }),
  );
  beforeEach(() => {
    api.options = sampleOptions;
    api.reportCalls = [];
    api.fileCalls = [];
    api.hold = null;
  });
  return { api, server };
}

/** A reply of the api with the error body every failure carries. */
export function apiError(code: string, message: string) {
  return { code, message, requestId: 'req-1' };
}

/** The browser's Back button. */
function BackButton() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      Browser back
    </button>
  );
}

/** The address's decoded query ('' when it has none). */
export const address = () => screen.getByLabelText('query').textContent;

/** The reports page at `route`, with the address's query and a Back button. */
export function renderReportsAt(route: string, session: Partial<SessionState> = staffSession) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/reports" element={<ReportsPage />} />
      </Routes>
      <AddressQuery />
      <BackButton />
    </>,
    { route, session },
  );
}
