import { screen } from '@testing-library/react';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import RequestsApp from './App';

const mounted = <Routes><Route path="/requests/*" element={<RequestsApp basePath="/requests" />} /></Routes>;

describe('mfe-requests routes', () => {
  it('lists requests at its mount path', async () => {
    renderWithProviders(mounted, { route: '/requests' });
    expect(await screen.findByRole('heading', { name: 'Requests' })).toBeInTheDocument();
  });

  it('shows a request by id with a breadcrumb back to the list', async () => {
    renderWithProviders(mounted, { route: '/requests/r-7' });
    expect(await screen.findByRole('heading', { name: 'Request r-7' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Requests' })).toHaveAttribute('href', '/requests');
  });

  it('answers an unknown sub-path with the not-found page', async () => {
    renderWithProviders(mounted, { route: '/requests/r-7/nope' });
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
