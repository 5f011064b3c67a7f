import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PracticeSummary } from '@portal/shared/core/practices';
import { renderWithProviders } from '@portal/shared/testing';
import type { SessionState } from '@portal/shared/web/session';
import {
  AddressQuery,
  button,
  findDialog,
  findHeading,
  sessionFor,
  setupTestServer,
  setupUser,
} from '../../../testing/fixtures';
import { PracticesPage } from './practices-pages';

const practice = (id: string, name: string, extra: Partial<PracticeSummary> = {}): PracticeSummary => ({
  id,
  name,
  description: '',
  status: 'active',
  templateCount: 0,
  publishedTemplateCount: 0,
  staffCount: 0,
  projectCount: 0,
  updatedAt: '2026-03-04T15:05:00',
  ...extra,
});

let practices: PracticeSummary[] = [];
const sent: string[] = [];
const server = setupTestServer(
  http.get('*/api/v1/practices', ({ request }) => {
    const url = new URL(request.url);
    sent.push(`GET ${decodeURIComponent(url.search)}`);
    const status = url.searchParams.get('status') ?? 'all';
    const search = (url.searchParams.get('search') ?? '').toLowerCase();
    return HttpResponse.json({
      results: practices.filter(
        (p) => (status === 'all' || p.status === status) && p.name.toLowerCase().includes(search),
      ),
    });
  }),
  http.post('*/api/v1/practices', async ({ request }) => {
    const body = (await request.json()) as { name: string; description: string | null };
    sent.push(`POST ${JSON.stringify(body)}`);
    if (practices.some((p) => p.name === body.name)) {
      return HttpResponse.json(
        {
          code: 'practice_name_taken',
          message: 'A practice with this name already exists.',
          requestId: 'r',
          details: [{ field: 'name', message: 'name is already used by another practice' }],
        },
        { status: 409 },
      );
    }
    const created = practice('p9', body.name, { description: body.description ?? '' });
    practices = [...practices, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.patch('*/api/v1/practices/:id', async ({ request, params }) => {
    const body = (await request.json()) as Partial<PracticeSummary>;
    sent.push(`PATCH ${String(params.id)} ${JSON.stringify(body)}`);
    practices = practices.map((p) => (p.id === params.id ? { ...p, ...body } : p));
    return HttpResponse.json(practices.find((p) => p.id === params.id));
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  practices = [
    practice('p1', 'PCI DSS', {
      description: 'Payment card audits',
      templateCount: 3,
      publishedTemplateCount: 2,
      staffCount: 4,
      projectCount: 7,
    }),
    practice('p2', 'SOC 2', { status: 'retired', templateCount: 1 }),
  ];
});
afterEach(() => {
  sent.length = 0;
});

const editor = sessionFor({ isTevora: true });
const auditor = sessionFor({ isTevora: true, isAuditor: true });
const renderList = (route = '/settings/practices', session: Partial<SessionState> = editor) =>
  renderWithProviders(
    <>
      <PracticesPage />
      <AddressQuery />
    </>,
    { route, session },
  );

const row = (name: string) => screen.getByText(name, { selector: 'a' }).closest('tr') as HTMLElement;

describe('the practices list', () => {
  it('lists every practice with its status, template, staff and project counts, each linking to its page', async () => {
    renderList();
    expect(await findHeading('Practices & Templates')).toBeInTheDocument();
    const pci = await screen.findByText('PCI DSS', { selector: 'a' });
    expect(pci).toHaveAttribute('href', '/settings/practices/p1');
    const cells = within(row('PCI DSS'));
    expect(cells.getByText('Payment card audits')).toBeInTheDocument();
    expect(cells.getByText('Active')).toBeInTheDocument();
    expect(cells.getByLabelText('2 of 3 templates published')).toHaveTextContent('2/3');
    expect(cells.getByText('4')).toBeInTheDocument();
    expect(cells.getByText('7')).toBeInTheDocument();
    expect(within(row('SOC 2')).getByText('Retired')).toBeInTheDocument();
    expect(sent).toEqual(['GET ?status=all']);
  });

  it('keeps the status filter and the search in the address', async () => {
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(screen.getByText('Retired', { selector: '.ant-radio-button-wrapper *' }));
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?status=retired'));
    await waitFor(() => expect(screen.queryByText('PCI DSS', { selector: 'a' })).not.toBeInTheDocument());
    expect(screen.getByText('SOC 2', { selector: 'a' })).toBeInTheDocument();
    await ue.type(screen.getByLabelText('Search practices'), 'soc{Enter}');
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?status=retired&search=soc'));
    await waitFor(() => expect(sent).toContain('GET ?status=retired&search=soc'));
    await ue.type(screen.getByLabelText('Search practices'), 'x{Enter}');
    expect(await screen.findByText('No practices match these filters.')).toBeInTheDocument();
  });

  it('reads the filters from the address', async () => {
    renderList('/settings/practices?status=active&search=pci');
    expect(await screen.findByText('PCI DSS', { selector: 'a' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search practices')).toHaveValue('pci');
    expect(sent).toEqual(['GET ?status=active&search=pci']);
  });

  it('creates a practice, checking the name first and showing a taken name on the field', async () => {
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(button('New practice'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('New practice')).toBeInTheDocument();
    await ue.click(button('Create', dialog));
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(sent.filter((s) => s.startsWith('POST'))).toEqual([]);

    await ue.type(within(dialog).getByLabelText('Name'), 'PCI DSS');
    await ue.click(button('Create', dialog));
    expect(await within(dialog).findByText('A practice with this name already exists.')).toBeInTheDocument();

    await ue.clear(within(dialog).getByLabelText('Name'));
    await ue.type(within(dialog).getByLabelText('Name'), '  HIPAA ');
    await ue.type(within(dialog).getByLabelText('Description'), 'Health data');
    await ue.click(button('Create', dialog));
    expect(await screen.findByText('HIPAA', { selector: 'a' })).toHaveAttribute('href', '/settings/practices/p9');
    expect(sent).toContain('POST {"name":"HIPAA","description":"Health data"}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('puts the catalogue text on the name field when a taken name comes without details', async () => {
    server.use(
      http.post('*/api/v1/practices', () =>
        HttpResponse.json(
          { code: 'practice_name_taken', message: 'A practice with this name already exists.', requestId: 'r' },
          { status: 409 },
        ),
      ),
    );
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(button('New practice'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Name'), 'PCI DSS');
    await ue.click(button('Create', dialog));
    expect(await within(dialog).findByText('A practice with this name already exists.')).toBeInTheDocument();
  });

  it('retires and restores a practice only after a confirmation', async () => {
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(screen.getByLabelText('Retire PCI DSS'));
    let dialog = await findDialog();
    expect(within(dialog).getByText('Retire PCI DSS?', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    await ue.click(button('Cancel', dialog));
    expect(sent.some((s) => s.startsWith('PATCH'))).toBe(false);

    await ue.click(screen.getByLabelText('Retire PCI DSS'));
    dialog = await findDialog();
    await ue.click(button('Retire', dialog));
    await waitFor(() => expect(sent).toContain('PATCH p1 {"status":"retired"}'));
    await waitFor(() => expect(within(row('PCI DSS')).getByText('Retired')).toBeInTheDocument());

    await ue.click(screen.getByLabelText('Restore SOC 2'));
    await ue.click(button('Restore', await findDialog()));
    await waitFor(() => expect(sent).toContain('PATCH p2 {"status":"active"}'));
  });

  it('edits a practice in a dialog', async () => {
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(screen.getByLabelText('Edit PCI DSS'));
    const dialog = await findDialog();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('PCI DSS');
    // the dialog hands the focus to the name once it has opened: edit only after that
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    await ue.clear(within(dialog).getByLabelText('Description'));
    await ue.click(button('Save', dialog));
    await waitFor(() => expect(sent).toContain('PATCH p1 {"name":"PCI DSS","description":null}'));
  });

  it('is read-only for staff who may not edit practices', async () => {
    renderList('/settings/practices', auditor);
    await screen.findByText('PCI DSS', { selector: 'a' });
    expect(screen.queryByText('New practice')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Retire PCI DSS')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Edit PCI DSS')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Restore SOC 2')).not.toBeInTheDocument();
    expect(screen.getByText('Changing practices needs the permission to edit practices.')).toBeInTheDocument();
  });

  it('says when there are no practices, and offers a retry when they cannot be loaded', async () => {
    practices = [];
    const { unmount } = renderList();
    expect(await screen.findByText('No practices yet.')).toBeInTheDocument();
    unmount();
    server.use(
      http.get('*/api/v1/practices', () =>
        HttpResponse.json({ code: 'internal_error', message: 'Boom', requestId: 'r' }, { status: 500 }),
      ),
    );
    renderList();
    expect(await screen.findByText('The practices could not be loaded.')).toBeInTheDocument();
    expect(button('Try again')).toBeInTheDocument();
  });

  it('focuses the name each time a practice dialog opens, and keeps field ids unique', async () => {
    renderList();
    await screen.findByText('PCI DSS', { selector: 'a' });
    await ue.click(button('New practice'));
    let dialog = await findDialog();
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    expect(within(dialog).getByLabelText('Name').id).toMatch(/^practice-create_/);
    await ue.click(button('Cancel', dialog));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await ue.click(screen.getByLabelText('Edit PCI DSS'));
    dialog = await findDialog();
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    expect(within(dialog).getByLabelText('Name').id).toMatch(/^practice-edit_/);
    await ue.click(button('Cancel', dialog));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await ue.click(button('New practice'));
    dialog = await findDialog();
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('says when the page in the address is past the end, with a way to page 1', async () => {
    renderList('/settings/practices?status=active&page=3');
    expect(await screen.findByText('There is no page 3: the list has 1 page.')).toBeInTheDocument();
    expect(screen.queryByText('No practices yet.')).not.toBeInTheDocument();
    await ue.click(screen.getByText('Go to page 1'));
    await waitFor(() => expect(screen.getByLabelText('query')).toHaveTextContent('?status=active'));
    expect(screen.getByLabelText('query')).not.toHaveTextContent('page');
    expect(await screen.findByText('PCI DSS', { selector: 'a' })).toBeInTheDocument();
  });

  it('says a page past the end of an empty list is no page, not "No practices yet"', async () => {
    practices = [];
    renderList('/settings/practices?page=2');
    expect(await screen.findByText('There is no page 2: there are no practices yet.')).toBeInTheDocument();
    expect(screen.queryByText('No practices yet.')).not.toBeInTheDocument();
    expect(screen.getByText('Go to page 1').closest('a')).toHaveAttribute('href', '/settings/practices');
  });
});
