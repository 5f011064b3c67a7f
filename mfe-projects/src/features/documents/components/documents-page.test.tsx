import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { AddressQuery, renderWithProviders, setupTestServer, setupUser } from '@portal/shared/testing';
import type { DocumentList, DocumentRow } from '@portal/shared/core/files';
import type { Company, User } from '@portal/shared/core/schemas';
import type { SessionState } from '@portal/shared/web/session';
import { DocumentsPage } from './documents-page';

const acme: Company = {
  id: 'c1',
  name: 'Acme Corp',
  logo: null,
  modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
};
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
const session: Partial<SessionState> = {
  user,
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};

function doc(n: number, extra: Partial<DocumentRow> = {}): DocumentRow {
  return {
    id: `f${n}`,
    projectId: 'p1',
    folderId: 'fo2',
    name: `Policy ${n}.pdf`,
    contentType: 'application/pdf',
    size: 1536 * n,
    sha256: 'a'.repeat(64),
    version: 2,
    versionCount: 2,
    uploadedBy: { id: 'u2', name: 'Ann Lee', email: 'ann@acme.test' },
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-03T10:00:00.000Z',
    taskCount: 0,
    project: { id: 'p1', title: 'SOC 2 Type II 2026' },
    folderPath: 'Evidence / Q1',
    ...extra,
  };
}

const page = (results: DocumentRow[], extra: Partial<DocumentList> = {}): DocumentList => ({
  results,
  total: results.length,
  page: 1,
  pageSize: 25,
  ...extra,
});
const projects = {
  results: [
    { id: 'p1', title: 'SOC 2 Type II 2026' },
    { id: 'p2', title: 'ISO 27001' },
  ],
  total: 2,
  page: 1,
  pageSize: 200,
};

const asked: URLSearchParams[] = [];
const server = setupTestServer(
  http.get('*/api/v1/companies/c1/projects', () => HttpResponse.json(projects)),
  http.get('*/api/v1/companies/c1/files', ({ request }) => {
    asked.push(new URL(request.url).searchParams);
    return HttpResponse.json(page([doc(1), doc(2, { folderPath: '', folderId: 'root' })], { total: 27, page: 2 }));
  }),
);
beforeEach(() => {
  asked.length = 0;
});

const render = (route: string) =>
  renderWithProviders(
    <>
      <DocumentsPage />
      <AddressQuery />
    </>,
    { route, session },
  );

describe('Documents', () => {
  it('lists the files asked for by the address: its search, page and project', async () => {
    render('/v2/projects/documents?search=policy&page=2&projectId=p1&sort=name');
    expect(await screen.findByText('Policy 1.pdf')).toBeInTheDocument();
    const last = asked[asked.length - 1];
    expect(last.get('search')).toBe('policy');
    expect(last.get('page')).toBe('2');
    expect(last.get('projectId')).toBe('p1');
    expect(last.get('sort')).toBe('name');
    expect(last.get('pageSize')).toBe('25');

    const row = screen.getByText('Policy 1.pdf').closest('tr') as HTMLElement;
    expect(within(row).getByText('SOC 2 Type II 2026').closest('a')).toHaveAttribute(
      'href',
      '/v2/projects/p1?view=files&folderId=fo2',
    );
    expect(within(row).getByText('Evidence / Q1')).toBeInTheDocument();
    expect(within(row).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(row).getByText('v2')).toBeInTheDocument();
    expect(within(row).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'pdf file' })).toBeInTheDocument();
    // A file at the project's root says so.
    expect(within(screen.getByText('Policy 2.pdf').closest('tr') as HTMLElement).getByText('Root')).toBeInTheDocument();
    expect(screen.getByText('27 documents')).toBeInTheDocument();
    expect((screen.getByLabelText('Search documents') as HTMLInputElement).value).toBe('policy');
  });

  it('puts a new search in the address after a pause and asks again from page 1', async () => {
    const user = setupUser();
    render('/v2/projects/documents?page=2');
    await screen.findByText('Policy 1.pdf');
    await user.type(screen.getByLabelText('Search documents'), 'audit');
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?search=audit'));
    await waitFor(() => expect(asked[asked.length - 1].get('search')).toBe('audit'));
    expect(asked[asked.length - 1].get('page')).toBe('1');
    // One request for the pause, not one per key.
    expect(asked.filter((q) => q.get('search') !== null)).toHaveLength(1);
  });

  it('sorts by a column through the address', async () => {
    const user = setupUser();
    render('/v2/projects/documents?page=2');
    await screen.findByText('Policy 1.pdf');
    await user.click(screen.getAllByText('Size')[0]);
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?sort=size'));
    await waitFor(() => expect(asked[asked.length - 1].get('sort')).toBe('size'));
    await user.click(screen.getAllByText('Size')[0]);
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?sort=-size'));
  });

  it('filters by project through the address', async () => {
    const user = setupUser();
    render('/v2/projects/documents');
    await screen.findByText('Policy 1.pdf');
    await user.click(screen.getByLabelText('Filter by project'));
    await user.click(await screen.findByText('ISO 27001', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?projectId=p2'));
    await waitFor(() => expect(asked[asked.length - 1].get('projectId')).toBe('p2'));
  });

  it('downloads a file through its signed URL', async () => {
    const user = setupUser();
    let signed = '';
    server.use(
      http.get('*/api/v1/files/:id/signed-url', ({ params }) => {
        signed = String(params.id);
        return HttpResponse.json({
          url: '/api/v1/files/f1/content?v=1',
          expiresAt: '2026-01-03T10:05:00.000Z',
          name: 'Policy 1.pdf',
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render('/v2/projects/documents');
    await screen.findByText('Policy 1.pdf');
    await user.click(screen.getByLabelText('Download Policy 1.pdf'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(signed).toBe('f1');
    click.mockRestore();
  });

  it('says "No documents yet" when the company has none', async () => {
    server.use(http.get('*/api/v1/companies/c1/files', () => HttpResponse.json(page([]))));
    render('/v2/projects/documents');
    expect(await screen.findByText('No documents yet')).toBeInTheDocument();
  });

  it('says "No documents match" when a search finds nothing, and clears it', async () => {
    const user = setupUser();
    server.use(http.get('*/api/v1/companies/c1/files', () => HttpResponse.json(page([]))));
    render('/v2/projects/documents?search=zzz');
    expect(await screen.findByText('No documents match')).toBeInTheDocument();
    await user.click(screen.getByText('Clear filters'));
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe(''));
  });

  it('says when the documents could not be loaded', async () => {
    server.use(
      http.get('*/api/v1/companies/c1/files', () =>
        HttpResponse.json(
          { code: 'internal_error', message: 'Something went wrong (request r1).', requestId: 'r1' },
          { status: 500 },
        ),
      ),
    );
    render('/v2/projects/documents');
    expect(await screen.findByText('The documents could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong (request r1).')).toBeInTheDocument();
  });
});
