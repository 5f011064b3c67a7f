import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@portal/shared/web/router';
import { PageHeader } from './components';

describe('PageHeader breadcrumbs', () => {
  it('lead from Home through the crumbs to the current page, which is not a link', () => {
    render(
      <MemoryRouter>
        <PageHeader title="Acme Corp" crumbs={[{ title: 'Clients', to: '/settings/clients' }, { title: 'Acme Corp' }]} />
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
