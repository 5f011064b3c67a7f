/** The list page's api for its tests (list, assignee options, export, bulk, create) and the page under test, with the address. */
import { http, HttpResponse } from 'msw';
import type { RequestSummary } from '@portal/shared/core/requests';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { Route, Routes } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';
import {
  AddressBar,
  ann,
  apiError,
  assigneeOptionsReply,
  makeRequest,
  setupTestServer,
  staffSession,
} from '../../../testing/fixtures';
import { RequestsListPage } from '../components/requests-list-page';

/** What the api holds and was asked, reset before each test. */
export interface ListApi {
  requests: RequestSummary[];
  listCalls: string[];
  exportCalls: string[];
  bulkCalls: unknown[];
  createCalls: unknown[];
  toasts: ToastMessage[];
}

/**
 * The api for this test file. The list filters by status, priority and overdue; a bulk accept is refused
 * (409 naming REQ-0001); a new request titled "Taken" is refused on its assignees.
 */
export function setupListApi() {
  const api: ListApi = { requests: [], listCalls: [], exportCalls: [], bulkCalls: [], createCalls: [], toasts: [] };
  const server = setupTestServer(
    http.get('*/api/v1/companies/c1/requests/assignees', () => HttpResponse.json(assigneeOptionsReply)),
    http.get('*/api/v1/companies/c1/requests', ({ request }) => {
      const url = new URL(request.url);
      api.listCalls.push(decodeURIComponent(url.search));
      const statuses = url.searchParams.getAll('status[]');
      const priorities = url.searchParams.getAll('priority[]');
      const results = api.requests.filter(
        (r) =>
          (!statuses.length || statuses.includes(r.status)) &&
          (!priorities.length || priorities.includes(r.priority)) &&
          (url.searchParams.get('overdue') !== 'true' || r.overdue),
      );
      return HttpResponse.json({
        results,
        total: results.length,
        page: Number(url.searchParams.get('page')),
        pageSize: 25,
      });
    }),
    http.get('*/api/v1/companies/c1/requests/export', ({ request }) => {
      api.exportCalls.push(decodeURIComponent(new URL(request.url).search));
      return new HttpResponse('Reference,Title\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="requests.csv"' },
      });
    }),
    http.post('*/api/v1/companies/c1/requests/bulk', async ({ request }) => {
      const body = (await request.json()) as { action: string; transition?: string; requestIds: string[] };
      api.bulkCalls.push(body);
      if (body.action === 'status' && body.transition === 'accept') {
        return HttpResponse.json(
          apiError('invalid_status_transition', 'Some requests cannot take this change.', [
            { field: 'requestIds', message: 'REQ-0001 is open: it cannot be accepted' },
          ]),
          { status: 409 },
        );
      }
      return HttpResponse.json({ updated: body.requestIds.length });
    }),
    http.post('*/api/v1/companies/c1/requests', async ({ request }) => {
      const body = (await request.json()) as { title: string };
      api.createCalls.push(body);
      if (body.title === 'Taken') {
        return HttpResponse.json(
          apiError('validation_failed', 'Invalid field: assigneeIds', [
            { field: 'assigneeIds', message: 'assigneeIds must name active members of the company' },
          ]),
          { status: 400 },
        );
      }
      return HttpResponse.json({ ...makeRequest(42, { title: body.title }), id: 'r42' }, { status: 201 });
    }),
  );

  const subscription = toast$.subscribe((t) => api.toasts.push(t));
  afterAll(() => subscription.unsubscribe());
  beforeEach(() => {
    api.requests = [
      makeRequest(1, {
        title: 'Firewall review',
        dueDate: '2026-01-10',
        overdue: true,
        assignees: [ann],
        teams: [{ id: 'tm1', name: 'IT Ops' }],
        project: { id: 'p1', title: 'SOC 2 Type II 2026' },
      }),
      makeRequest(2, { title: 'Access list', status: 'submitted', priority: 'high' }),
      makeRequest(3, { title: 'Old policy', status: 'accepted' }),
    ];
    api.listCalls = [];
    api.exportCalls = [];
    api.bulkCalls = [];
    api.createCalls = [];
    api.toasts = [];
  });
  return { api, server };
}

/** The list page at `route` (a request's page is a stub), with the address and a Back button. */
export function renderListAt(route: string, session: Partial<SessionState> = staffSession) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/requests" element={<RequestsListPage />} />
        <Route path="/requests/:id" element={<p>Request detail</p>} />
      </Routes>
      <AddressBar />
    </>,
    { route, session },
  );
}
