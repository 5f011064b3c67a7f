import { screen } from '@testing-library/react';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import ReportsApp from './App';

describe('mfe-reports routes', () => {
  it('shows the reports page at its mount path', async () => {
    renderWithProviders(<Routes><Route path="/reports/*" element={<ReportsApp basePath="/reports" />} /></Routes>, { route: '/reports' });
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
  });
});
