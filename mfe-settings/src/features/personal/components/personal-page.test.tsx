import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { User } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { acme, clientUser, exeAsPngFile, multipartFields, pngFile, setupTestServer } from '../../../testing/fixtures';
import { PersonalPage } from './personal-page';

// No pause between keystrokes: antd re-renders on each, and this machine is shared.
const user = userEvent.setup({ delay: null });

const baseUser = clientUser;
const company = acme;
const png = (size = 64) => pngFile(size, 'me.png');
const exeAsPng = () => exeAsPngFile('me.png');

let me: User;
let calls: { method: string; path: string; fields?: Record<string, string>; json?: unknown }[];
let policy = { minimumLength: 12, rotationInDays: 0 };

const server = setupTestServer(
  http.get('*/api/v1/users/profile/me', () => HttpResponse.json(me)),
  http.put('*/api/v1/users/profile/me', async ({ request }) => {
    const fields = await multipartFields(request);
    calls.push({ method: 'PUT', path: '/users/profile/me', fields });
    me = {
      ...me,
      firstName: fields.firstName,
      lastName: fields.lastName,
      avatar: fields.avatar ? '/api/v1/users/u1/avatar?v=2' : me.avatar,
    };
    return HttpResponse.json(me);
  }),
  http.delete('*/api/v1/users/profile/me/avatar', () => {
    calls.push({ method: 'DELETE', path: '/users/profile/me/avatar' });
    me = { ...me, avatar: null };
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/v1/users/profile/me/password', async ({ request }) => {
    const json = (await request.json()) as { currentPassword: string };
    calls.push({ method: 'POST', path: '/users/profile/me/password', json });
    if (json.currentPassword !== 'right-password') {
      return HttpResponse.json(
        {
          code: 'current_password_incorrect',
          message: 'The current password is not correct.',
          requestId: 'r1',
          details: [{ field: 'currentPassword', message: 'The current password is not correct.' }],
        },
        { status: 400 },
      );
    }
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('*/api/v1/companies/:id/password-policy', () => HttpResponse.json(policy)),
);

beforeEach(() => {
  me = { ...baseUser };
  calls = [];
  policy = { minimumLength: 12, rotationInDays: 0 };
});

function renderPage(user: User = me) {
  const toasts: ToastMessage[] = [];
  const sub = toast$.subscribe((t) => toasts.push(t));
  const view = renderWithProviders(<PersonalPage />, {
    route: '/settings',
    session: { user, loggedIn: true, companies: [company], companiesLoaded: true, selectedCompanyId: 'c1' },
  });
  return { ...view, toasts, unsubscribe: () => sub.unsubscribe() };
}

const save = () => user.click(screen.getByRole('button', { name: 'Save profile' }));

describe('personal settings: the profile', () => {
  it('shows the email read-only and sends only the editable fields; the session (the header) follows', async () => {
    const { store, toasts, unsubscribe } = renderPage();
    expect(screen.getByText('ada@acme.test')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Email' })).not.toBeInTheDocument();
    const first = screen.getByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.type(screen.getByLabelText('Phone'), '+44 20 7946 0000');
    await user.click(screen.getByRole('switch', { name: 'Daily e-mails' }));
    await save();
    await waitFor(() => expect(store.getState().session.user?.firstName).toBe('Augusta'));
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/users/profile/me',
        fields: {
          firstName: 'Augusta',
          lastName: 'Lovelace',
          title: 'CISO',
          primaryPhone: '+44 20 7946 0000',
          sendDailyEmails: 'true',
        },
      },
    ]);
    expect(toasts).toContainEqual(expect.objectContaining({ severity: 'success', summary: 'Profile saved' }));
    unsubscribe();
  });

  it('checks the fields with the api schema before sending', async () => {
    renderPage();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('Phone'), 'call me');
    await save();
    expect(await screen.findByText('Is required')).toBeInTheDocument();
    expect(await screen.findByText('May hold only digits, spaces and + ( ) - .')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows the api field errors of a 400 on their fields', async () => {
    server.use(
      http.put('*/api/v1/users/profile/me', () =>
        HttpResponse.json(
          {
            code: 'validation_failed',
            message: 'Invalid field: lastName',
            requestId: 'r2',
            details: [{ field: 'lastName', message: 'lastName is not allowed here' }],
          },
          { status: 400 },
        ),
      ),
    );
    renderPage();
    await save();
    expect(await screen.findByText('Is not allowed here')).toBeInTheDocument();
  });

  it('refuses a program named .png and an image over 2 MB before sending anything', async () => {
    renderPage();
    // The file input is replaced after each choice: find it again each time.
    await user.upload(screen.getByLabelText('Avatar'), exeAsPng());
    expect(await screen.findByText('Must be a PNG, JPEG, GIF or WebP image')).toBeInTheDocument();
    await save();
    await user.upload(screen.getByLabelText('Avatar'), png(3 * 1024 * 1024));
    expect(await screen.findByText('Must be at most 2 MB')).toBeInTheDocument();
    await save();
    expect(screen.getByText('Must be at most 2 MB')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('sends a real image with the profile and shows its preview first', async () => {
    const { store } = renderPage();
    await user.upload(screen.getByLabelText('Avatar'), png());
    expect(await screen.findByRole('img', { name: 'New avatar preview' })).toBeInTheDocument();
    await save();
    await waitFor(() => expect(store.getState().session.user?.avatar).toBe('/api/v1/users/u1/avatar?v=2'));
    expect(calls[0].fields).toMatchObject({ avatar: 'file me.png (64 bytes)' });
  });

  it('deletes the avatar after a confirmation', async () => {
    me = { ...me, avatar: '/api/v1/users/u1/avatar?v=1' };
    const { store } = renderPage();
    await user.click(screen.getByRole('button', { name: /Delete avatar/ }));
    expect(calls).toEqual([]);
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete your avatar?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(store.getState().session.user?.avatar).toBeNull());
    expect(calls).toEqual([{ method: 'DELETE', path: '/users/profile/me/avatar' }]);
  });

  it('shows a federated user their profile read-only, sends them to single sign-on, and has no password section', async () => {
    renderPage({ ...me, metadata: { ...me.metadata, isFederated: true } });
    expect(screen.getByText("You sign in with your company's single sign-on")).toBeInTheDocument();
    expect(screen.getByText(/to change them, use your company's single sign-on/)).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toBeDisabled();
    expect(screen.getByLabelText('Last name')).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Daily e-mails' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Choose an image/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save profile' })).not.toBeInTheDocument();
    expect(screen.queryByText('Password')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });
});

describe('personal settings: the password', () => {
  async function fill(current: string, next: string, confirm: string) {
    await user.type(screen.getByLabelText('Current password'), current);
    await user.type(screen.getByLabelText('New password'), next);
    await user.type(screen.getByLabelText('Confirm new password'), confirm);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it("checks the company's minimum length and the confirmation before sending", async () => {
    policy = { minimumLength: 16, rotationInDays: 0 };
    renderPage();
    expect(await screen.findByText('At least 16 characters.')).toBeInTheDocument();
    await fill('right-password', 'fifteen-chars!!', 'something-else-entirely');
    expect(await screen.findByText('Must be at least 16 characters')).toBeInTheDocument();
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows a wrong current password on its field', async () => {
    renderPage();
    await fill('wrong-password', 'a-long-new-password', 'a-long-new-password');
    expect(await screen.findByText('The current password is not correct.')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/users/profile/me/password',
        json: { currentPassword: 'wrong-password', newPassword: 'a-long-new-password' },
      },
    ]);
  });

  it('changes the password and says so', async () => {
    const { toasts, unsubscribe } = renderPage();
    await fill('right-password', 'a-long-new-password', 'a-long-new-password');
    expect(await screen.findByText('Your password was changed.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(toasts).toContainEqual(expect.objectContaining({ severity: 'success', summary: 'Password changed' }));
    unsubscribe();
  });
});

describe('personal settings: testing a release in this browser (staff)', () => {
  let overrides: { remote: string; url: string }[];
  beforeEach(() => {
    overrides = [];
    server.use(
      http.get('*/api/v1/remote-overrides', () => HttpResponse.json({ results: overrides })),
      http.put('*/api/v1/remote-overrides/:remote', async ({ params, request }) => {
        const { url } = (await request.json()) as { url: string };
        if (params.remote === 'mfe-risks') {
          return HttpResponse.json(
            { code: 'remote_not_found', message: 'Remote not found.', requestId: 'r1' },
            { status: 404 },
          );
        }
        overrides = [...overrides.filter((o) => o.remote !== params.remote), { remote: String(params.remote), url }];
        return HttpResponse.json({ results: overrides });
      }),
      http.delete('*/api/v1/remote-overrides/:remote', ({ params }) => {
        overrides = overrides.filter((o) => o.remote !== params.remote);
        return HttpResponse.json({ results: overrides });
      }),
    );
  });

  it('points a module at another address, asks for a reload, and removes it after a confirmation', async () => {
    const { unsubscribe } = renderPage({ ...me, isTevora: true, isAuditor: false });
    const card = (await screen.findByText('Test a release in this browser')).closest('.ant-card') as HTMLElement;
    expect(await within(card).findByText('Every module loads from the portal.')).toBeInTheDocument();

    await user.type(within(card).getByLabelText('Module'), 'mfe-reports');
    await user.type(within(card).getByLabelText('Address of its mf-manifest.json'), 'http://cdn.example/x.json');
    await user.click(within(card).getByRole('button', { name: 'Use in this browser' }));
    expect(
      await within(card).findByText(/The address must be the https address of a mf-manifest.json/),
    ).toBeInTheDocument();

    await user.clear(within(card).getByLabelText('Address of its mf-manifest.json'));
    await user.type(
      within(card).getByLabelText('Address of its mf-manifest.json'),
      'http://localhost:3004/mf-manifest.json',
    );
    await user.click(within(card).getByRole('button', { name: 'Use in this browser' }));
    expect(await within(card).findByText('http://localhost:3004/mf-manifest.json')).toBeInTheDocument();
    expect(within(card).getByText('Reload the page to load the module from its new address.')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    // the confirmation's own Remove
    await waitFor(() => expect(document.querySelector('.ant-popconfirm-buttons')).not.toBeNull());
    await user.click(
      within(document.querySelector('.ant-popconfirm-buttons') as HTMLElement).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(overrides).toEqual([]));
    expect(await within(card).findByText('Every module loads from the portal.')).toBeInTheDocument();
    unsubscribe();
  });

  it('is not offered to client users', async () => {
    const { unsubscribe } = renderPage();
    await screen.findByRole('button', { name: 'Save profile' });
    expect(screen.queryByText('Test a release in this browser')).toBeNull();
    unsubscribe();
  });
});
