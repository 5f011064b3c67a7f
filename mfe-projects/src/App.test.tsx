import { screen } from '@testing-library/react';
import { renderWithProviders } from '@portal/shared/testing';
import ProjectsApp from './App';
import { pageParam } from './features/projects/components/project-pages';

describe('mfe-projects routes', () => {
  it('shows Home with the selected company on the dashboard', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, {
      route: '/',
      session: {
        companies: [{ id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true } }],
        selectedCompanyId: 'c1',
      },
    });
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(screen.getAllByText(/Acme Corp/).length).toBeGreaterThan(0);
  });

  it('renders the Safe Transfer page with a breadcrumb back to Home', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route: '/safe-transfer' });
    expect(await screen.findByRole('heading', { name: 'Safe Transfer' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it('reads the project id and defaults page parameters to 1', async () => {
    renderWithProviders(<ProjectsApp basePath="/" />, { route: '/v2/projects/p-42?tasksPage=3&filesPage=abc' });
    expect(await screen.findByRole('heading', { name: 'Project p-42' })).toBeInTheDocument();
    expect(screen.getByText(/tasksPage 3 · filesPage 1 · controlsPage 1/)).toBeInTheDocument();
  });

  it('pageParam accepts positive integers only', () => {
    expect(pageParam(new URLSearchParams('p=2'), 'p')).toBe(2);
    expect(pageParam(new URLSearchParams('p=0'), 'p')).toBe(1);
    expect(pageParam(new URLSearchParams('p=-3'), 'p')).toBe(1);
    expect(pageParam(new URLSearchParams(''), 'p')).toBe(1);
  });
});
