import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Company } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { useCompaniesListQuery } from '@portal/shared/web/api';
import {
  acme,
  exeAsPngFile,
  multipartFields,
  pngFile,
  setupTestServer,
  staffAdmin,
  validationFailed,
} from '../../../testing/fixtures';
import { CompanyInformation } from './company-information';

const user = userEvent.setup({ delay: null });

let company: Company;
let calls: { method: string; fields?: Record<string, string> }[];
let listFetches: number;

setupTestServer(
  http.get('*/api/v1/companies/:id', () => HttpResponse.json(company)),
  http.get('*/api/v1/companies', () => {
    listFetches += 1;
    return HttpResponse.json({ results: [company], total: 1, page: 1, pageSize: 1 });
  }),
  http.patch('*/api/v1/companies/:id', async ({ request }) => {
    const fields = await multipartFields(request);
    calls.push({ method: 'PATCH', fields });
    if (fields.name === 'Globex Inc') {
      const { status, body } = validationFailed(
        [{ field: 'name', message: 'name is already used by another company' }],
        409,
        'company_name_taken',
      );
      return HttpResponse.json(body, { status });
    }
    company = { ...company, name: fields.name, logo: fields.logo ? '/api/v1/companies/c1/logo?v=2' : company.logo };
    return HttpResponse.json(company);
  }),
  http.delete('*/api/v1/companies/:id/logo', () => {
    calls.push({ method: 'DELETE logo' });
    company = { ...company, logo: null };
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeEach(() => {
  company = { ...acme, name: 'Acme Corp' };
  calls = [];
  listFetches = 0;
});

function CompanySwitcherList() {
  const list = useCompaniesListQuery();
  return <output aria-label="Switcher">{list.data?.results.map((c) => c.name).join(', ')}</output>;
}

function renderInformation(canEdit = true) {
  return renderWithProviders(
    <>
      <CompanySwitcherList />
      <CompanyInformation companyId="c1" canEdit={canEdit} />
    </>,
    { session: { user: staffAdmin, loggedIn: true } },
  );
}

const save = () => user.click(screen.getByRole('button', { name: 'Save company information' }));

describe('company information', () => {
  it('renames the company and the company switcher follows', async () => {
    renderInformation();
    const name = await screen.findByLabelText('Company name');
    expect(name).toHaveValue('Acme Corp');
    await user.clear(name);
    await user.type(name, 'Acme Holdings');
    await save();
    await waitFor(() => expect(screen.getByRole('status', { name: 'Switcher' })).toHaveTextContent('Acme Holdings'));
    expect(calls).toEqual([{ method: 'PATCH', fields: { name: 'Acme Holdings' } }]);
    expect(listFetches).toBe(2);
  });

  it('shows a name already in use on the name field', async () => {
    renderInformation();
    const name = await screen.findByLabelText('Company name');
    await user.clear(name);
    await user.type(name, 'Globex Inc');
    await save();
    expect(await screen.findByText('A company with this name already exists.')).toBeInTheDocument();
  });

  it('checks the name with the api schema before sending', async () => {
    renderInformation();
    await user.clear(await screen.findByLabelText('Company name'));
    await save();
    expect(await screen.findByText('Is required')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('refuses a fake PNG and a 3 MB image before sending, and sends a real logo with a preview', async () => {
    renderInformation();
    await screen.findByLabelText('Company name');
    await user.upload(screen.getByLabelText('Logo'), exeAsPngFile('logo.png'));
    expect(await screen.findByText('Must be a PNG, JPEG, GIF or WebP image')).toBeInTheDocument();
    await save();
    await user.upload(screen.getByLabelText('Logo'), pngFile(3 * 1024 * 1024, 'logo.png'));
    expect(await screen.findByText('Must be at most 2 MB')).toBeInTheDocument();
    await save();
    expect(calls).toEqual([]);

    await user.upload(screen.getByLabelText('Logo'), pngFile(100, 'logo.png'));
    expect(await screen.findByRole('img', { name: 'New logo preview' })).toBeInTheDocument();
    await save();
    expect(await screen.findByRole('img', { name: 'Acme Corp logo' })).toHaveAttribute(
      'src',
      '/api/v1/companies/c1/logo?v=2',
    );
    expect(calls).toEqual([{ method: 'PATCH', fields: { name: 'Acme Corp', logo: 'file logo.png (100 bytes)' } }]);
    // three uploads and four saves: slow on a loaded machine
  }, 60_000);

  it('deletes the logo after a confirmation', async () => {
    company = { ...company, logo: '/api/v1/companies/c1/logo?v=1' };
    renderInformation();
    await user.click(await screen.findByRole('button', { name: /Delete logo/ }));
    expect(calls).toEqual([]);
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No logo')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'DELETE logo' }]);
  });

  it('disables every control without the permission and says why', async () => {
    company = { ...company, logo: '/api/v1/companies/c1/logo?v=1' };
    renderInformation(false);
    expect(await screen.findByLabelText('Company name')).toBeDisabled();
    expect(screen.getByRole('button', { name: /Choose another logo/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Delete logo/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save company information' })).toBeDisabled();
    expect(
      screen.getByText("Changing the company's information needs the permission to edit company information."),
    ).toBeInTheDocument();
  });
});
