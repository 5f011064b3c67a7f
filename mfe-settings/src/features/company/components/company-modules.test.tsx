import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Company } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { useCompaniesAccessPermissionsQuery, useCompaniesListQuery } from '@portal/shared/web/api';
import { globex, setupTestServer, staffAdmin } from '../../../testing/fixtures';
import { CompanyModules } from './company-modules';

const user = userEvent.setup({ delay: null });

let company: Company;
let calls: string[];

const server = setupTestServer(
  http.get('*/api/v1/companies/:id', () => {
    calls.push('GET company');
    return HttpResponse.json(company);
  }),
  http.get('*/api/v1/companies', () => {
    calls.push('GET companies');
    return HttpResponse.json({ results: [company], total: 1, page: 1, pageSize: 1 });
  }),
  http.get('*/api/v1/companies/:id/access-permissions', () => {
    calls.push('GET access-permissions');
    return HttpResponse.json({ modulesAccess: company.modulesAccess, settingsPermissions: {} });
  }),
  http.patch('*/api/v1/companies/:id/modules-access', async ({ request }) => {
    const body = (await request.json()) as Partial<Company['modulesAccess']>;
    calls.push(`PATCH ${JSON.stringify(body)}`);
    company = { ...company, modulesAccess: { ...company.modulesAccess, ...body } };
    return HttpResponse.json(company);
  }),
);

beforeEach(() => {
  company = { ...globex };
  calls = [];
});

/** What the shell keeps mounted: the company switcher's list and the selected company's access. */
function ShellQueries() {
  useCompaniesListQuery();
  useCompaniesAccessPermissionsQuery('c2');
  return null;
}

function renderModules(canEdit: boolean) {
  return renderWithProviders(
    <>
      <ShellQueries />
      <CompanyModules companyId="c2" canEdit={canEdit} />
    </>,
    { session: { user: staffAdmin, loggedIn: true } },
  );
}

const switchFor = (name: string) => screen.findByRole('switch', { name });

describe('company module access', () => {
  it('shows a labelled switch per module and explains that the company is the ceiling', async () => {
    renderModules(true);
    expect(await switchFor('Risks')).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Requests' })).not.toBeChecked();
    expect(screen.getAllByRole('switch')).toHaveLength(5);
    expect(
      screen.getByText(/a module turned off here is off for every user and team of Globex Inc/),
    ).toBeInTheDocument();
  });

  it('turns a module on with a PATCH and refreshes the shell: company, switcher list and access', async () => {
    renderModules(true);
    await user.click(await switchFor('Requests'));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Requests' })).toBeChecked());
    expect(calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH {"requests":true}']);
    const after = calls.slice(calls.indexOf('PATCH {"requests":true}') + 1);
    await waitFor(() => expect([...after].sort()).toEqual(['GET access-permissions', 'GET companies', 'GET company']));
  });

  it('asks before turning a module off, and sends nothing when the user cancels', async () => {
    renderModules(true);
    await user.click(await switchFor('Reports'));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Turn Reports off for Globex Inc?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('switch', { name: 'Reports' })).toBeChecked();
    expect(calls.filter((c) => c.startsWith('PATCH'))).toEqual([]);

    await user.click(screen.getByRole('switch', { name: 'Reports' }));
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Reports' })).not.toBeChecked());
    expect(calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH {"reports":false}']);
  });

  it('disables the switches without the permission and says why', async () => {
    renderModules(false);
    for (const name of ['Risks', 'Projects', 'Requests', 'Reports', 'Assets'])
      expect(await switchFor(name)).toBeDisabled();
    expect(
      screen.getByText("Changing module access needs the permission to edit the company's module access."),
    ).toBeInTheDocument();
  });

  it('shows an error with a retry when the company cannot be loaded', async () => {
    let fail = true;
    server.use(
      http.get('*/api/v1/companies/:id', () =>
        fail
          ? HttpResponse.json({ code: 'internal', message: 'Something broke', requestId: 'r' }, { status: 500 })
          : HttpResponse.json(company),
      ),
    );
    renderModules(true);
    expect(await screen.findByText("The company's module access could not be loaded")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await switchFor('Risks')).toBeChecked();
  });
});
