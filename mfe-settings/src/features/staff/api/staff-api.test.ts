import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { makeTestStore } from '@portal/shared/testing';
import { practicesApi } from '../../practices/api/practices-api';
import { setupTestServer } from '../../../testing/fixtures';
import { staffApi } from './staff-api';

const practice = (id: string) => ({
  id,
  name: id,
  description: '',
  status: 'active',
  templateCount: 0,
  publishedTemplateCount: 0,
  staffCount: 0,
  projectCount: 0,
  updatedAt: '2026-03-04T15:05:00',
  staff: [],
});
const reads: string[] = [];
setupTestServer(
  http.get('*/api/v1/practices', () => {
    reads.push('list');
    return HttpResponse.json({ results: [practice('p1'), practice('p2')] });
  }),
  http.get('*/api/v1/practices/:id', ({ params }) => {
    reads.push(String(params.id));
    return HttpResponse.json(practice(String(params.id)));
  }),
  http.get('*/api/v1/users/s2/practices', () => HttpResponse.json({ results: [practice('p1')] })),
  http.put('*/api/v1/users/s2/practices', () => HttpResponse.json({ results: [practice('p2')] })),
);

it('reads the practices list and the pages of the practices gained and lost again after a staff user’s practices change', async () => {
  const store = makeTestStore();
  const subscriptions = [
    store.dispatch(practicesApi.endpoints.settingsPracticesSearch.initiate({ status: 'all' })),
    store.dispatch(practicesApi.endpoints.settingsPracticeGet.initiate('p1')),
    store.dispatch(practicesApi.endpoints.settingsPracticeGet.initiate('p2')),
    store.dispatch(practicesApi.endpoints.settingsPracticeGet.initiate('p3')),
    store.dispatch(staffApi.endpoints.settingsStaffPractices.initiate('s2')),
  ];
  await Promise.all(subscriptions);
  reads.length = 0;
  await store
    .dispatch(staffApi.endpoints.settingsStaffPracticesUpdate.initiate({ userId: 's2', practiceIds: ['p2'] }))
    .unwrap();
  await waitFor(() => expect([...reads].sort()).toEqual(['list', 'p1', 'p2']));
  subscriptions.forEach((s) => s.unsubscribe());
});
