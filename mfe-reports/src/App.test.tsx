import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from '@portal/shared/web/router';
import { renderWithProviders, setupTestServer } from '@portal/shared/testing';
import { staffSession } from './features/reports/testing/reports-api';
import ReportsApp from './App';

setupTestServer(
  http.get('*/api/v1/companies/c1/reports/options', () => HttpResponse.json({ kinds: [], projects: [] })),
);

const mounted = (
  <Routes>
    <Route path="/reports/*" element={<ReportsApp basePath="/reports" />} />
  </Routes>
);

describe('mfe-reports routes', () => {
  it('shows the reports page at its mount path', async () => {
    renderWithProviders(mounted, { route: '/reports', session: staffSession });
    expect(await screen.findByText('Reports', { selector: 'h1' })).toBeInTheDocument();
    expect(await screen.findByText('No reports are available to you in this company.')).toBeInTheDocument();
  });

  it('answers an unknown sub-path with the not-found page', async () => {
    renderWithProviders(mounted, { route: '/reports/nope', session: staffSession });
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
