import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { IdentityProvider, IdentityProviderSettings } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { setupTestServer, staffAdmin, validationFailed } from '../../../testing/fixtures';
import { CompanyIdentityProvider } from './identity-provider';

const user = userEvent.setup({ delay: null });

const SERVICE_PROVIDER = {
  entityId: 'https://portal.example.test/auth/saml/metadata',
  acsUrl: 'https://portal.example.test/auth/saml/acs',
  metadataUrl: 'https://portal.example.test/auth/saml/metadata',
};
/** Shaped like a certificate (the web can check only that); the api parses it. */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\nMIIC${'A'.repeat(80)}\n-----END CERTIFICATE-----`;
const UNREADABLE = `MIIC${'B'.repeat(80)}`;
const FINGERPRINT = 'AB:CD:EF:01:23:45:67:89';

let current: IdentityProvider | null;
let calls: { method: string; body?: unknown }[];

const settings = (): IdentityProviderSettings => ({
  identityProvider: current,
  serviceProvider: SERVICE_PROVIDER,
  domains: [],
  canConfirmDomains: false,
});

setupTestServer(
  http.get('*/api/v1/companies/:id/identity-provider', () => {
    calls.push({ method: 'GET' });
    return HttpResponse.json(settings());
  }),
  http.put('*/api/v1/companies/:id/identity-provider', async ({ request }) => {
    const body = (await request.json()) as {
      entityId: string;
      ssoUrl: string;
      certificate: string;
      sloUrl: string | null;
    };
    calls.push({ method: 'PUT', body });
    if (body.certificate === UNREADABLE) {
      const { status, body: error } = validationFailed([
        { field: 'certificate', message: 'certificate is not a readable X.509 certificate (PEM or base64 DER)' },
      ]);
      return HttpResponse.json(error, { status });
    }
    current = {
      ...body,
      sloUrl: body.sloUrl ?? null,
      certificateFingerprint: FINGERPRINT,
      certificateExpiresAt: '2031-05-01T12:00:00.000Z',
      updatedAt: new Date().toISOString(),
    };
    return HttpResponse.json(settings());
  }),
  http.delete('*/api/v1/companies/:id/identity-provider', () => {
    calls.push({ method: 'DELETE' });
    current = null;
    return new HttpResponse(null, { status: 204 });
  }),
);

beforeEach(() => {
  current = null;
  calls = [];
});

const renderSso = (canEdit = true) =>
  renderWithProviders(<CompanyIdentityProvider companyId="c1" canEdit={canEdit} />, {
    session: { user: staffAdmin, loggedIn: true },
  });

async function fill(values: { entityId: string; ssoUrl: string; certificate: string; sloUrl?: string }) {
  await user.type(await screen.findByLabelText('Identity provider entity ID'), values.entityId);
  await user.type(screen.getByLabelText('Single sign-on URL'), values.ssoUrl);
  await user.click(screen.getByLabelText('Signing certificate'));
  await user.paste(values.certificate);
  if (values.sloUrl) await user.type(screen.getByLabelText('Single logout URL (optional)'), values.sloUrl);
}
const save = () => user.click(screen.getByRole('button', { name: 'Save single sign-on' }));

describe('company single sign-on', () => {
  it('shows what to enter at the identity provider while none is configured', async () => {
    renderSso();
    expect(await screen.findByText(SERVICE_PROVIDER.acsUrl)).toBeInTheDocument();
    expect(screen.getAllByText(SERVICE_PROVIDER.entityId)).toHaveLength(2);
    expect(screen.getByText('Not configured: users sign in with a password')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove single sign-on' })).not.toBeInTheDocument();
  });

  it('checks the fields with the api schema before sending', async () => {
    renderSso();
    await fill({
      entityId: 'acme-idp',
      ssoUrl: 'http://idp.example.test/sso',
      certificate: 'hello',
      sloUrl: 'ftp://idp.example.test/slo',
    });
    await save();
    // under the sign-in URL and the sign-out URL
    await waitFor(() => expect(screen.getAllByText('Must be an https URL (http only for localhost)')).toHaveLength(2));
    expect(await screen.findByText('Must be an X.509 certificate in PEM or base64 DER')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET' }]);
  });

  it('shows a certificate the api cannot read on the certificate field', async () => {
    renderSso();
    await fill({ entityId: 'acme-idp', ssoUrl: 'https://idp.example.test/sso', certificate: UNREADABLE });
    await save();
    expect(await screen.findByText('Is not a readable X.509 certificate (PEM or base64 DER)')).toBeInTheDocument();
  });

  it('saves the identity provider, then shows the certificate fingerprint and expiry', async () => {
    renderSso();
    await fill({ entityId: 'acme-idp', ssoUrl: 'https://idp.example.test/sso', certificate: CERTIFICATE });
    await save();
    expect(await screen.findByText(FINGERPRINT)).toBeInTheDocument();
    expect(screen.getByText('5/1/2031')).toBeInTheDocument();
    expect(screen.getByText('Configured')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      {
        method: 'PUT',
        body: { entityId: 'acme-idp', ssoUrl: 'https://idp.example.test/sso', certificate: CERTIFICATE, sloUrl: null },
      },
    ]);
  });

  it('removes the identity provider after a confirmation', async () => {
    current = {
      entityId: 'acme-idp',
      ssoUrl: 'https://idp.example.test/sso',
      certificate: CERTIFICATE,
      sloUrl: null,
      certificateFingerprint: FINGERPRINT,
      certificateExpiresAt: '2020-01-15T12:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    renderSso();
    expect(await screen.findByText(/Expired on 1\/15\/2020/)).toBeInTheDocument();
    expect(screen.getByLabelText('Identity provider entity ID')).toHaveValue('acme-idp');
    await user.click(screen.getByRole('button', { name: 'Remove single sign-on' }));
    expect(calls).toEqual([{ method: 'GET' }]);
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Not configured: users sign in with a password')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Identity provider entity ID')).toHaveValue(''));
    expect(calls).toEqual([{ method: 'GET' }, { method: 'DELETE' }, { method: 'GET' }]);
  });

  it('fetches nothing without the permission and says why', async () => {
    renderSso(false);
    expect(
      screen.getByText('Viewing and changing single sign-on needs the permission to edit company information.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Identity provider entity ID')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });
});
