import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Company } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { useCompaniesListQuery } from '@portal/shared/web/api';
import { AddressQuery, makeCompanies, sessionFor, setupTestServer } from '../../../testing/fixtures';
import { ClientsPage } from './clients-page';

const user = userEvent.setup({ delay: null });

let companies: Company[];
/** The list requests of the page (the shell's switcher asks with ignorePagination). */
let listRequests: string[];
let switcherFetches: number;
let posted: unknown[];
let failList: boolean;

setupTestServer(
  http.get('*/api/v1/companies', ({ request }) => {
    const url = new URL(request.url);
    if (url.searchParams.get('ignorePagination') === 'true') {
      switcherFetches += 1;
      return HttpResponse.json({ results: companies, total: companies.length, page: 1, pageSize: companies.length });
    }
    listRequests.push(url.search);
    if (failList)
      return HttpResponse.json(
        { code: 'internal', message: 'The database is unavailable', requestId: 'r' },
        { status: 500 },
      );
    const search = url.searchParams.get('search')?.toLowerCase() ?? '';
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
    const matching = companies.filter((c) => c.name.toLowerCase().includes(search));
    if (url.searchParams.get('sort') === '-name') matching.reverse();
    return HttpResponse.json({
      results: matching.slice((page - 1) * pageSize, page * pageSize),
      total: matching.length,
      page,
      pageSize,
    });
  }),
  http.post('*/api/v1/companies', async ({ request }) => {
    const body = (await request.json()) as { name: string; modulesAccess: Company['modulesAccess'] };
    posted.push(body);
    if (companies.some((c) => c.name.toLowerCase() === body.name.toLowerCase())) {
      return HttpResponse.json(
        {
          code: 'company_name_taken',
          message: 'A company with this name already exists.',
          requestId: 'r',
          details: [{ field: 'name', message: 'name is already used by another company' }],
        },
        { status: 409 },
      );
    }
    const company: Company = {
      id: `c${companies.length + 1}`,
      name: body.name,
      logo: null,
      modulesAccess: body.modulesAccess,
    };
    companies = [...companies, company].sort((a, b) => a.name.localeCompare(b.name));
    return HttpResponse.json(company, { status: 201 });
  }),
);

beforeEach(() => {
  companies = makeCompanies(25);
  listRequests = [];
  switcherFetches = 0;
  posted = [];
  failList = false;
});

function Switcher() {
  useCompaniesListQuery();
  return null;
}

function renderClients(route = '/settings/clients', addCompany = true) {
  return renderWithProviders(
    <>
      <Switcher />
      <ClientsPage />
      <AddressQuery label="Address" decoded={false} />
    </>,
    { route, session: sessionFor({ isTevora: true, isStaffAdmin: addCompany, companyRole: null }) },
  );
}

const address = () => screen.getByRole('status', { name: 'Address' });
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

describe('clients', () => {
  it('lists the companies with their modules', async () => {
    renderClients();
    expect(await screen.findByText('Company 01')).toBeInTheDocument();
    expect(names()).toHaveLength(20);
    const first = screen.getByText('Company 01').closest('tr')!;
    expect(within(first).getByText('Requests')).toBeInTheDocument();
    const second = screen.getByText('Company 02').closest('tr')!;
    expect(within(second).getByText('Projects')).toBeInTheDocument();
    expect(within(second).getByLabelText('Requests off')).toBeInTheDocument();
    expect(screen.getByText('25 companies')).toBeInTheDocument();
    expect(listRequests).toEqual(['?page=1&pageSize=20&sort=name']);
  });

  it('restores search and page from the address', async () => {
    renderClients('/settings/clients?search=company&page=3&pageSize=10');
    expect(await screen.findByText('Company 25')).toBeInTheDocument();
    expect(names()).toEqual(['Company 21', 'Company 22', 'Company 23', 'Company 24', 'Company 25']);
    expect(screen.getByRole('textbox', { name: 'Search companies' })).toHaveValue('company');
    expect(listRequests).toEqual(['?page=3&pageSize=10&sort=name&search=company']);
    expect(screen.getByRole('listitem', { name: '3' })).toHaveClass('ant-pagination-item-active');
  });

  it('searches after a pause in typing, from the first page, and keeps it in the address', async () => {
    renderClients('/settings/clients?page=2');
    await screen.findByText('Company 21');
    await user.type(screen.getByRole('textbox', { name: 'Search companies' }), 'company 0');
    await waitFor(() => expect(address()).toHaveTextContent('?search=company+0'));
    expect(await screen.findByText('Company 09')).toBeInTheDocument();
    // one request for the pause, not one per key
    expect(listRequests).toEqual(['?page=2&pageSize=20&sort=name', '?page=1&pageSize=20&sort=name&search=company%200']);
  });

  it('pages and sorts by name through the address', async () => {
    renderClients();
    await screen.findByText('Company 01');
    await user.click(screen.getByRole('listitem', { name: '2' }));
    await waitFor(() => expect(address()).toHaveTextContent('?page=2'));
    expect(await screen.findByText('Company 25')).toBeInTheDocument();
    await user.click(screen.getByText('Company', { selector: '.ant-table-column-title' }));
    await waitFor(() => expect(address()).toHaveTextContent('?sort=-name'));
    await waitFor(() => expect(names()[0]).toBe('Company 25'));
    expect(listRequests).toEqual([
      '?page=1&pageSize=20&sort=name',
      '?page=2&pageSize=20&sort=name',
      '?page=1&pageSize=20&sort=-name',
    ]);
  });

  it('says when no company matches, and shows an error with a retry', async () => {
    renderClients('/settings/clients?search=zzz');
    expect(await screen.findByText('No companies match "zzz"')).toBeInTheDocument();
    failList = true;
    await user.clear(screen.getByRole('textbox', { name: 'Search companies' }));
    expect(await screen.findByText('The companies could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is unavailable')).toBeInTheDocument();
    failList = false;
    await user.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('Company 01')).toBeInTheDocument();
  });

  it('disables adding a company without the permission and says why', async () => {
    renderClients('/settings/clients', false);
    await screen.findByText('Company 01');
    const add = screen.getByRole('button', { name: /Add company/ });
    expect(add).toBeDisabled();
    await user.hover(add);
    expect(
      await screen.findByText('Adding companies needs the permission to add companies (staff administrators).'),
    ).toBeInTheDocument();
  });

  it('adds a company (a duplicate name shows on the name field) and refreshes the list and the switcher', async () => {
    renderClients('/settings/clients?page=2');
    await screen.findByText('Company 21');
    await user.click(screen.getByRole('button', { name: /Add company/ }));
    // antd gives every element the same id under test, so the dialog is found by its content
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add company', { selector: '.ant-modal-title' })).toBeInTheDocument();
    for (const m of ['Risks', 'Projects', 'Requests', 'Reports', 'Assets'])
      expect(within(dialog).getByRole('switch', { name: m })).toBeChecked();
    await user.type(within(dialog).getByLabelText('Company name'), 'company 03');
    await user.click(within(dialog).getByRole('button', { name: 'Add company' }));
    expect(await within(dialog).findByText('A company with this name already exists.')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Company name'));
    await user.type(within(dialog).getByLabelText('Company name'), 'Company 26');
    await user.click(within(dialog).getByRole('switch', { name: 'Reports' }));
    const switcherBefore = switcherFetches;
    await user.click(within(dialog).getByRole('button', { name: 'Add company' }));
    expect(await screen.findByText('Company 26')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted).toEqual([
      {
        name: 'company 03',
        modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
      },
      {
        name: 'Company 26',
        modulesAccess: { risks: true, projects: true, requests: true, reports: false, assets: true },
      },
    ]);
    expect(switcherFetches).toBe(switcherBefore + 1);
  });

  it('checks the name before sending', async () => {
    renderClients();
    await screen.findByText('Company 01');
    await user.click(screen.getByRole('button', { name: /Add company/ }));
    // antd gives every element the same id under test, so the dialog is found by its content
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add company', { selector: '.ant-modal-title' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add company' }));
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(posted).toEqual([]);
  });
});
