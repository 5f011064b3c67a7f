/** The Practices & Templates routes of mfe-settings (App.tsx): the list and a practice's page. */
export { PracticesPage } from './practices-page';
export { PracticeDetailPage } from './practice-detail-page';
