import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useParams } from '@portal/shared/web/router';
import { renderWithProviders } from '@portal/shared/testing';
import { assigneeOptionsReply, setupTestServer, staffSession } from './testing/fixtures';
import RequestsApp from './App';

// The detail page is its own feature (and its own tests): here only that the route reaches it.
jest.mock('./features/request-detail/request-detail-page', () => ({
  RequestDetailPage: function DetailStub() {
    const { requestId } = useParams();
    return <p>{`Detail of ${requestId}`}</p>;
  },
}));

setupTestServer(
  http.get('*/api/v1/companies/c1/requests', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 25 })),
  http.get('*/api/v1/companies/c1/requests/assignees', () => HttpResponse.json(assigneeOptionsReply)),
);

const mounted = (
  <Routes>
    <Route path="/requests/*" element={<RequestsApp basePath="/requests" />} />
  </Routes>
);

describe('mfe-requests routes', () => {
  it('lists requests at its mount path', async () => {
    renderWithProviders(mounted, { route: '/requests', session: staffSession });
    expect(await screen.findByText('Requests', { selector: 'h1' })).toBeInTheDocument();
    expect(await screen.findByText('No requests yet')).toBeInTheDocument();
  });

  it('shows a request by id', async () => {
    renderWithProviders(mounted, { route: '/requests/r-7', session: staffSession });
    expect(await screen.findByText('Detail of r-7')).toBeInTheDocument();
  });

  it('answers an unknown sub-path with the not-found page', async () => {
    renderWithProviders(mounted, { route: '/requests/r-7/nope', session: staffSession });
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
