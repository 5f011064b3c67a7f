import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@portal/shared/web/router';
import { FileTypeIcon, FrameButton, FrameLinkButton, PageHeader, StatusPanel } from './components';

describe('PageHeader breadcrumbs', () => {
  it('lead from Home through the crumbs to the current page, which is not a link', () => {
    render(
      <MemoryRouter>
        <PageHeader
          title="Acme Corp"
          crumbs={[{ title: 'Clients', to: '/settings/clients' }, { title: 'Acme Corp' }]}
        />
      </MemoryRouter>,
    );
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const crumbs = within(trail).getAllByRole('listitem');
    expect(crumbs.map((c) => c.textContent)).toEqual(['Home/', 'Clients/', 'Acme Corp']);
    expect(within(trail).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(trail).getByRole('link', { name: 'Clients' })).toHaveAttribute('href', '/settings/clients');
    expect(within(trail).queryByRole('link', { name: 'Acme Corp' })).not.toBeInTheDocument();
    expect(within(trail).getByText('Acme Corp')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { name: 'Acme Corp' })).toBeInTheDocument();
  });

  it('on Home itself, Home is the current page', () => {
    render(
      <MemoryRouter>
        <PageHeader title="Home" />
      </MemoryRouter>,
    );
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(trail).queryByRole('link')).not.toBeInTheDocument();
    expect(within(trail).getByText('Home')).toHaveAttribute('aria-current', 'page');
  });
});

describe('FrameButton', () => {
  // the page's nonce, as the api puts it in index.html; the sheet is added by the first FrameButton
  const meta = document.createElement('meta');
  beforeAll(() => {
    meta.name = 'csp-nonce';
    meta.nonce = 'n0nce';
    document.head.appendChild(meta);
  });
  afterAll(() => meta.remove());

  it('is a button that does not submit its form, answers clicks and keys, and not when disabled', async () => {
    const onClick = jest.fn();
    const onSubmit = jest.fn((e: { preventDefault: () => void }) => e.preventDefault());
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <FrameButton variant="primary" onClick={onClick}>
          Try again
        </FrameButton>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Try again' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(onClick).toHaveBeenCalledTimes(2);
    expect(onSubmit).not.toHaveBeenCalled();

    rerender(
      <form onSubmit={onSubmit}>
        <FrameButton variant="primary" onClick={onClick} disabled>
          Try again
        </FrameButton>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('alone with its icon, is named by its label and square; the icon is hidden from assistive technology', () => {
    render(<FrameButton aria-label="Toggle theme" icon={<svg data-testid="bulb" />} />);
    const button = screen.getByRole('button', { name: 'Toggle theme' });
    expect(button).toHaveClass('portal-btn', 'portal-btn-icon-only');
    expect(screen.getByTestId('bulb').parentElement).toHaveAttribute('aria-hidden', 'true');
  });

  it("takes the theme's colours and adds its stylesheet to the page once, with the page's CSP nonce", () => {
    render(
      <>
        <FrameButton>One</FrameButton>
        <FrameButton variant="text">Two</FrameButton>
        <FrameLinkButton href="/auth/saml/login">Three</FrameLinkButton>
      </>,
    );
    const sheets = document.head.querySelectorAll('style[data-portal-sheet="frame"]');
    expect(sheets).toHaveLength(1);
    expect(sheets[0].textContent).toContain('.portal-btn:focus-visible');
    expect((sheets[0] as HTMLStyleElement).nonce).toBe('n0nce');
    // antd's default light theme: a default button on white, a text button on nothing
    expect(screen.getByRole('button', { name: 'One' }).style.getPropertyValue('--pb-bg')).toBe('#ffffff');
    expect(screen.getByRole('button', { name: 'Two' }).style.getPropertyValue('--pb-bg')).toBe('transparent');
  });
});

describe('FrameLinkButton', () => {
  it('goes to a portal page with `to` and to any other address with `href`, as a link (not a button in a link)', () => {
    render(
      <MemoryRouter>
        <FrameLinkButton variant="primary" to="/">
          Back to Home
        </FrameLinkButton>
        <FrameLinkButton href="mailto:support@demo.test">Help</FrameLinkButton>
      </MemoryRouter>,
    );
    const home = screen.getByRole('link', { name: 'Back to Home' });
    expect(home).toHaveAttribute('href', '/');
    expect(home).toHaveClass('portal-btn');
    expect(screen.getByRole('link', { name: 'Help' })).toHaveAttribute('href', 'mailto:support@demo.test');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('FileTypeIcon', () => {
  it('badges a CSV file as CSV and a workbook as XLS', () => {
    render(
      <>
        <FileTypeIcon name="requests.csv" />
        <FileTypeIcon name="tracker.XLSX" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'csv file' })).toHaveTextContent('CSV');
    expect(screen.getByRole('img', { name: 'excel file' })).toHaveTextContent('XLS');
  });
});

describe('page titles', () => {
  it("names the page once: PageHeader's title and a whole-page StatusPanel are the h1, a nested one an h2", () => {
    render(
      <MemoryRouter>
        <PageHeader title="Requests" />
        <StatusPanel nested kind="forbidden" title="Requests are not available" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Requests');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Requests are not available');
    render(<StatusPanel kind="notFound" title="Page not found" />);
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'Requests',
      'Page not found',
    ]);
  });
});
