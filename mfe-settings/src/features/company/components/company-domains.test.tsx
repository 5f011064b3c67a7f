import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  DOMAIN_VERIFICATION_PREFIX,
  type CompanyDomain,
  type IdentityProvider,
  type IdentityProviderSettings,
} from '@portal/shared/core/schemas';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { renderWithProviders } from '@portal/shared/testing';
import { button, setupTestServer, setupUser, staffAdmin, validationFailed } from '../../../testing/fixtures';
import { CompanyIdentityProvider } from './identity-provider';

const user = setupUser();

const SERVICE_PROVIDER = {
  entityId: 'https://portal.example.test/auth/saml/metadata',
  acsUrl: 'https://portal.example.test/auth/saml/acs',
  metadataUrl: 'https://portal.example.test/auth/saml/metadata',
};
const IDENTITY_PROVIDER: IdentityProvider = {
  entityId: 'acme-idp',
  ssoUrl: 'https://idp.example.test/sso',
  certificate: `-----BEGIN CERTIFICATE-----\nMIIC${'A'.repeat(80)}\n-----END CERTIFICATE-----`,
  sloUrl: null,
  certificateFingerprint: 'AB:CD',
  certificateExpiresAt: '2031-05-01T12:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const pending = (id: string, domain: string): CompanyDomain => ({
  id,
  domain,
  status: 'pending',
  verification: { name: domain, type: 'TXT', value: `${DOMAIN_VERIFICATION_PREFIX}token-${id}` },
  verifiedAt: null,
  verifiedBy: null,
  createdAt: '2026-02-01T00:00:00.000Z',
});
const verified = (id: string, domain: string, by: 'dns' | 'staff'): CompanyDomain => ({
  ...pending(id, domain),
  status: 'verified',
  verifiedAt: '2026-02-03T12:00:00.000Z',
  verifiedBy: by,
});

let identityProvider: IdentityProvider | null;
let domains: CompanyDomain[];
let canConfirmDomains: boolean;
let calls: string[];
/** The TXT records the test's DNS has, by domain. */
let dns: Record<string, string>;
/** Holds the verify response back until the test lets it go. */
let verifyGate: Promise<void>;

const settings = (): IdentityProviderSettings => ({
  identityProvider,
  serviceProvider: SERVICE_PROVIDER,
  domains,
  canConfirmDomains,
});
const error = (status: number, code: string, message: string, details?: { field: string; message: string }[]) =>
  HttpResponse.json({ code, message, requestId: 'req-1', ...(details ? { details } : {}) }, { status });

setupTestServer(
  http.get('*/api/v1/companies/:id/identity-provider', () => {
    calls.push('GET');
    return HttpResponse.json(settings());
  }),
  http.post('*/api/v1/companies/:id/domains', async ({ request }) => {
    const body = (await request.json()) as { domain: string };
    calls.push(`POST ${body.domain}`);
    if (body.domain === 'globex.test') {
      return error(409, 'domain_taken', 'Another company has verified this domain.', [
        { field: 'domain', message: 'Another company has verified this domain' },
      ]);
    }
    if (body.domain === 'local.test') {
      const { status, body: invalid } = validationFailed([
        { field: 'domain', message: 'Domain must be a domain name such as example.com, without @ or https://' },
      ]);
      return HttpResponse.json(invalid, { status });
    }
    const added = pending(`d${domains.length + 1}`, body.domain);
    domains = [...domains, added];
    return HttpResponse.json(added, { status: 201 });
  }),
  http.post('*/api/v1/companies/:id/domains/:domainId/verify', async ({ params }) => {
    calls.push(`VERIFY ${String(params.domainId)}`);
    await verifyGate;
    const domain = domains.find((d) => d.id === params.domainId)!;
    if (dns[domain.domain] !== domain.verification.value) {
      return error(
        400,
        'domain_not_verified',
        `No TXT record "${domain.verification.value}" was found on ${domain.domain}. Add it at your DNS provider.`,
      );
    }
    const done = verified(domain.id, domain.domain, 'dns');
    domains = domains.map((d) => (d.id === done.id ? done : d));
    return HttpResponse.json(done);
  }),
  http.post('*/api/v1/companies/:id/domains/:domainId/confirm', ({ params }) => {
    calls.push(`CONFIRM ${String(params.domainId)}`);
    const domain = domains.find((d) => d.id === params.domainId)!;
    const done = verified(domain.id, domain.domain, 'staff');
    domains = domains.map((d) => (d.id === done.id ? done : d));
    return HttpResponse.json(done);
  }),
  http.delete('*/api/v1/companies/:id/domains/:domainId', ({ params }) => {
    calls.push(`DELETE ${String(params.domainId)}`);
    domains = domains.filter((d) => d.id !== params.domainId);
    return new HttpResponse(null, { status: 204 });
  }),
);

let toasts: ToastMessage[];
let unsubscribe: () => void;

beforeEach(() => {
  identityProvider = IDENTITY_PROVIDER;
  domains = [];
  canConfirmDomains = false;
  calls = [];
  dns = {};
  verifyGate = Promise.resolve();
  toasts = [];
  const subscription = toast$.subscribe((t) => toasts.push(t));
  unsubscribe = () => subscription.unsubscribe();
});
afterEach(() => unsubscribe());

const renderSso = () =>
  renderWithProviders(<CompanyIdentityProvider companyId="c1" canEdit />, {
    session: { user: staffAdmin, loggedIn: true },
  });

/** The table row of `domain`. */
const row = (domain: string) =>
  screen.getByText(domain, { selector: 'td strong, td strong *' }).closest('tr') as HTMLElement;
const WARNING = 'Nobody signs in through this identity provider until a domain is verified.';

describe('company email domains', () => {
  it('lists the domains: verified ones by how, pending ones with the TXT record to add', async () => {
    domains = [
      verified('d1', 'acme.test', 'dns'),
      verified('d2', 'acme.example', 'staff'),
      pending('d3', 'acme-corp.test'),
    ];
    renderSso();
    expect(await screen.findByText('Email domains')).toBeInTheDocument();
    expect(screen.getByText(/signs in only users whose email address is on a verified domain/)).toBeInTheDocument();

    expect(within(row('acme.test')).getByText('Verified by DNS')).toBeInTheDocument();
    expect(within(row('acme.example')).getByText('Verified by staff')).toBeInTheDocument();
    expect(within(row('acme.test')).queryByText(`${DOMAIN_VERIFICATION_PREFIX}token-d1`)).not.toBeInTheDocument();
    expect(within(row('acme.test')).queryByText('Verify')).not.toBeInTheDocument();

    const waiting = row('acme-corp.test');
    expect(within(waiting).getByText('Pending verification')).toBeInTheDocument();
    expect(within(waiting).getByText('TXT')).toBeInTheDocument();
    expect(within(waiting).getByText(`${DOMAIN_VERIFICATION_PREFIX}token-d3`)).toBeInTheDocument();
    // the record's name and value each have a copy button saying what it copies
    expect(within(waiting).getByLabelText('Copy the record name for acme-corp.test')).toBeInTheDocument();
    expect(within(waiting).getByLabelText('Copy the record value for acme-corp.test')).toBeInTheDocument();
    expect(screen.queryByText(WARNING)).not.toBeInTheDocument();
  });

  it('says when there are no domains, and warns that a configured identity provider signs in nobody yet', async () => {
    renderSso();
    expect(await screen.findByText(/No email domains yet/)).toBeInTheDocument();
    expect(screen.getByText(WARNING)).toBeInTheDocument();
  });

  it('warns while the only domains are pending, and not without an identity provider', async () => {
    domains = [pending('d1', 'acme.test')];
    const { unmount } = renderSso();
    expect(await screen.findByText('Pending verification')).toBeInTheDocument();
    expect(screen.getByText(WARNING)).toBeInTheDocument();
    unmount();

    identityProvider = null;
    renderSso();
    expect(await screen.findByText('Pending verification')).toBeInTheDocument();
    expect(screen.queryByText(WARNING)).not.toBeInTheDocument();
  });

  it('adds a domain checked with the api schema, then clears the field', async () => {
    renderSso();
    const input = await screen.findByLabelText('Email domain');
    await user.type(input, 'https://acme.test');
    await user.click(button('Add domain'));
    expect(
      await screen.findByText('Domain must be a domain name such as example.com, without @ or https://'),
    ).toBeInTheDocument();
    expect(calls).toEqual(['GET']);

    await user.clear(input);
    await user.type(input, ' @Acme.TEST ');
    await user.click(button('Add domain'));
    expect(await screen.findByText('Pending verification')).toBeInTheDocument();
    expect(calls).toEqual(['GET', 'POST acme.test', 'GET']);
    expect(within(row('acme.test')).getByText(`${DOMAIN_VERIFICATION_PREFIX}token-d1`)).toBeInTheDocument();
    // (the form's reset renders the field afresh: a new input)
    await waitFor(() => expect(screen.getByLabelText('Email domain')).toHaveValue(''));
    expect(toasts).toContainEqual(
      expect.objectContaining({ severity: 'success', summary: 'acme.test added: add its TXT record, then verify it' }),
    );
  });

  it('shows the api refusing a domain under the field and keeps what was typed', async () => {
    renderSso();
    const input = await screen.findByLabelText('Email domain');
    await user.type(input, 'globex.test');
    await user.click(button('Add domain'));
    expect(await screen.findByText('Another company has verified this domain')).toBeInTheDocument();
    expect(input).toHaveValue('globex.test');

    await user.clear(input);
    await user.type(input, 'local.test');
    await user.click(button('Add domain'));
    expect(
      await screen.findByText('Domain must be a domain name such as example.com, without @ or https://'),
    ).toBeInTheDocument();
    expect(input).toHaveValue('local.test');
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(['POST globex.test', 'POST local.test']);
  });

  it('shows why a domain could not be verified, then verifies it once its record is there', async () => {
    domains = [pending('d1', 'acme.test')];
    renderSso();
    await screen.findByText('Pending verification');
    let release = () => {};
    verifyGate = new Promise((resolve) => (release = resolve));
    await user.click(button('Verify', row('acme.test')));
    // the button shows its request running
    await waitFor(() => expect(button('Verify', row('acme.test'))).toHaveClass('ant-btn-loading'));
    release();
    expect(
      await screen.findByText(
        `No TXT record "${DOMAIN_VERIFICATION_PREFIX}token-d1" was found on acme.test. Add it at your DNS provider.`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Pending verification')).toBeInTheDocument();
    expect(button('Verify', row('acme.test'))).not.toHaveClass('ant-btn-loading');

    dns['acme.test'] = `${DOMAIN_VERIFICATION_PREFIX}token-d1`;
    await user.click(button('Verify', row('acme.test')));
    expect(await screen.findByText('Verified by DNS')).toBeInTheDocument();
    expect(screen.queryByText(/No TXT record/)).not.toBeInTheDocument();
    expect(screen.queryByText(WARNING)).not.toBeInTheDocument();
    expect(toasts).toContainEqual(expect.objectContaining({ severity: 'success', summary: 'acme.test verified' }));
    expect(calls).toEqual(['GET', 'VERIFY d1', 'VERIFY d1', 'GET']);
  });

  it('offers confirming without DNS to staff admins only, after saying it skips the DNS proof', async () => {
    domains = [pending('d1', 'acme.test')];
    const { unmount } = renderSso();
    await screen.findByText('Pending verification');
    expect(screen.queryByText('Confirm without DNS')).not.toBeInTheDocument();
    unmount();

    canConfirmDomains = true;
    renderSso();
    await screen.findByText('Pending verification');
    await user.click(button('Confirm without DNS', row('acme.test')));
    const popup = await screen.findByRole('tooltip');
    expect(within(popup).getByText(/This skips the DNS proof/)).toBeInTheDocument();
    expect(calls).toEqual(['GET', 'GET']);
    await user.click(button('Confirm domain', popup));
    expect(await screen.findByText('Verified by staff')).toBeInTheDocument();
    expect(calls).toEqual(['GET', 'GET', 'CONFIRM d1', 'GET']);
  });

  it('removes a domain only after a confirmation that says its users go back to passwords', async () => {
    domains = [verified('d1', 'acme.test', 'dns')];
    renderSso();
    await screen.findByText('Verified by DNS');
    await user.click(button('Remove', row('acme.test')));
    const popup = await screen.findByRole('tooltip');
    expect(
      within(popup).getByText(
        'Users with an email address on acme.test then sign in with a password again; those without one must reset it.',
      ),
    ).toBeInTheDocument();
    // the focus goes to the confirmation (its Cancel), so it can be answered from the keyboard
    await waitFor(() => expect(within(popup).getByText('Cancel').closest('button')).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(button('Remove', row('acme.test'))).toHaveFocus());
    expect(calls).toEqual(['GET']);

    await user.click(button('Remove', row('acme.test')));
    await user.click(button('Remove', await screen.findByRole('tooltip')));
    expect(await screen.findByText(/No email domains yet/)).toBeInTheDocument();
    expect(calls).toEqual(['GET', 'DELETE d1', 'GET']);
    expect(screen.getByText(WARNING)).toBeInTheDocument();
  });
});
