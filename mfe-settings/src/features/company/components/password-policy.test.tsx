import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { PasswordPolicy } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { setupTestServer, staffAdmin, validationFailed } from '../../../testing/fixtures';
import { CompanyPasswordPolicy } from './password-policy';

const user = userEvent.setup({ delay: null });

let policy: PasswordPolicy;
let posted: unknown[];

setupTestServer(
  http.get('*/api/v1/companies/:id/password-policy', () => HttpResponse.json(policy)),
  http.post('*/api/v1/companies/:id/password-policy', async ({ request }) => {
    const body = (await request.json()) as PasswordPolicy;
    posted.push(body);
    if (body.rotationInDays === 7) {
      const { status, body: error } = validationFailed([
        { field: 'rotationInDays', message: 'rotationInDays is refused by the server' },
      ]);
      return HttpResponse.json(error, { status });
    }
    policy = body;
    return HttpResponse.json(policy);
  }),
);

beforeEach(() => {
  policy = { minimumLength: 12, rotationInDays: 0 };
  posted = [];
});

const renderPolicy = (canEdit = true) =>
  renderWithProviders(<CompanyPasswordPolicy companyId="c1" canEdit={canEdit} />, {
    session: { user: staffAdmin, loggedIn: true },
  });

async function enter(label: string, value: string) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  await user.type(input, value);
}
const save = () => user.click(screen.getByRole('button', { name: 'Save password policy' }));

describe('company password policy', () => {
  it('shows the current policy', async () => {
    renderPolicy();
    expect(await screen.findByLabelText('Minimum length')).toHaveValue('12');
    expect(screen.getByLabelText('Rotation (days)')).toHaveValue('0');
  });

  it('shows -1 and 3.5 as field errors and sends nothing', async () => {
    renderPolicy();
    await enter('Minimum length', '-1');
    await enter('Rotation (days)', '3.5');
    await save();
    expect(await screen.findByText('Must be at least 8')).toBeInTheDocument();
    expect(await screen.findByText('Must be a whole number from 0 to 3650')).toBeInTheDocument();
    // the inputs keep what was typed: nothing is rounded or clamped behind the user's back
    expect(screen.getByLabelText('Minimum length')).toHaveValue('-1');
    expect(screen.getByLabelText('Rotation (days)')).toHaveValue('3.5');
    expect(posted).toEqual([]);

    await enter('Minimum length', '129');
    await user.clear(screen.getByLabelText('Rotation (days)'));
    await save();
    expect(await screen.findByText('Must be at most 128')).toBeInTheDocument();
    expect(await screen.findByText('Is required')).toBeInTheDocument();
    expect(posted).toEqual([]);
  });

  it('saves whole numbers as integers', async () => {
    renderPolicy();
    await enter('Minimum length', '14');
    await enter('Rotation (days)', '90');
    await save();
    await waitFor(() => expect(posted).toEqual([{ minimumLength: 14, rotationInDays: 90 }]));
  });

  it("shows the api's field errors on their fields", async () => {
    renderPolicy();
    await enter('Rotation (days)', '7');
    await save();
    expect(await screen.findByText('Is refused by the server')).toBeInTheDocument();
  });

  it('disables the inputs without the permission and says why', async () => {
    renderPolicy(false);
    expect(await screen.findByLabelText('Minimum length')).toBeDisabled();
    expect(screen.getByLabelText('Rotation (days)')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save password policy' })).toBeDisabled();
    expect(
      screen.getByText('Changing the password policy needs the permission to edit company information.'),
    ).toBeInTheDocument();
  });
});
