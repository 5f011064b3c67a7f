import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithProviders } from '@portal/shared/testing';
import ProjectsApp from './App';
import {
  findHeading,
  makeControlDetail,
  makeProject,
  makeTaskDetail,
  session,
  setupTestServer,
} from './features/projects/testing/fixtures';

const empty = { results: [], total: 0, page: 1, pageSize: 25 };

setupTestServer(
  http.get('*/api/v1/projects/p1', () => HttpResponse.json(makeProject())),
  http.get('*/api/v1/projects/missing', () =>
    HttpResponse.json({ code: 'project_not_found', message: 'Project not found.', requestId: 'r' }, { status: 404 }),
  ),
  http.get('*/api/v1/projects/p1/tasks', () => HttpResponse.json(empty)),
  http.get('*/api/v1/projects/p1/users', () => HttpResponse.json({ results: [] })),
  http.get('*/api/v1/projects/p1/tasks/t1', () => HttpResponse.json(makeTaskDetail({ title: 'Review access' }))),
  http.get('*/api/v1/projects/p1/tasks/t1/comments', () => HttpResponse.json({ results: [] })),
  http.get('*/api/v1/projects/p1/controls/k1', () =>
    HttpResponse.json(makeControlDetail({ name: 'CC6.1', title: 'Logical access' })),
  ),
  // Home's own calls belong to the dashboard's tests: here they simply find nothing.
  http.get('*/api/v1/*', () =>
    HttpResponse.json({ code: 'not_found', message: 'Not found.', requestId: 'r' }, { status: 404 }),
  ),
);

describe('mfe-projects routes', () => {
  it('shows Home with the selected company on the dashboard', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route: '/', session });
    expect(await findHeading('Home')).toBeInTheDocument();
    expect(screen.getAllByText(/Acme Corp/).length).toBeGreaterThan(0);
  });

  it('renders the Safe Transfer page with a breadcrumb back to Home', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route: '/safe-transfer' });
    expect(await findHeading('Safe Transfer')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['the project', '/v2/projects/p1', 'SOC 2 Type II 2026'],
    ['a task', '/v2/projects/p1/tasks/t1', 'Review access'],
    ['a control', '/v2/projects/p1/controls/k1', 'CC6.1 — Logical access'],
    ['the team roster', '/v2/projects/p1/team-roster', 'Team roster'],
  ])('loads the page of %s on demand', async (_what, route, heading) => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route, session });
    expect(await findHeading(heading)).toBeInTheDocument();
  });

  it('says "Project not found" with a way Home for a project that is missing or hidden', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route: '/v2/projects/missing/team-roster', session });
    expect(await findHeading('Project not found')).toBeInTheDocument();
    expect(screen.getByText('Back to Home').closest('a')).toHaveAttribute('href', '/');
  });
});
