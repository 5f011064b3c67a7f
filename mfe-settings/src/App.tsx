import { Navigate, Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult, PageLoading } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { deferred } from '@portal/shared/web/deferred';
import { SettingsLayout, TabGuard } from './app/settings-layout';

// Each page loads on first use: the tabs and the first page's spinner show at once, and no page waits
// for the code of the others (nor for the extra UI kit when it does not use it).
const CompanyPage = deferred(() => import('./app/company-page').then((m) => ({ default: m.CompanyPage })));
const ClientsPage = deferred(() =>
  import('./features/clients/components/clients-page').then((m) => ({ default: m.ClientsPage })),
);
const CompanyUserPage = deferred(() =>
  import('./features/company-users/components/company-user-page').then((m) => ({ default: m.CompanyUserPage })),
);
const PersonalPage = deferred(() =>
  import('./features/personal/components/personal-page').then((m) => ({ default: m.PersonalPage })),
);
const PracticesPage = deferred(() =>
  import('./features/practices/components/practices-pages').then((m) => ({ default: m.PracticesPage })),
);
const PracticeDetailPage = deferred(() =>
  import('./features/practices/components/practices-pages').then((m) => ({ default: m.PracticeDetailPage })),
);
const StaffPage = deferred(() =>
  import('./features/staff/components/staff-page').then((m) => ({ default: m.StaffPage })),
);
const StaffUserPage = deferred(() =>
  import('./features/staff/components/staff-user-page').then((m) => ({ default: m.StaffUserPage })),
);
const SystemPage = deferred(() =>
  import('./features/system/components/system-page').then((m) => ({ default: m.SystemPage })),
);
const TeamsPage = deferred(() =>
  import('./features/teams/components/teams-page').then((m) => ({ default: m.TeamsPage })),
);

/** mfe-settings: mounted by the shell at /settings; settings permissions decide inside. */
export default function SettingsApp(_props: RemoteAppProps) {
  return (
    <SettingsLayout>
      <Routes>
        <Route index element={<PersonalPage fallback={<PageLoading />} />} />
        <Route path="personal" element={<PersonalPage fallback={<PageLoading />} />} />
        <Route
          path="company"
          element={
            <TabGuard tab="company">
              <CompanyPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="company/user/:userId"
          element={
            <TabGuard tab="teams">
              <CompanyUserPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="clients"
          element={
            <TabGuard tab="clients">
              <ClientsPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="teams"
          element={
            <TabGuard tab="teams">
              <TeamsPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="tevora"
          element={
            <TabGuard tab="tevora">
              <StaffPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="tevora/user/:userId"
          element={
            <TabGuard tab="tevora">
              <StaffUserPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="practices"
          element={
            <TabGuard tab="practices">
              <PracticesPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route path="templates" element={<Navigate to="../practices" replace />} />
        <Route
          path="practices/:practiceId"
          element={
            <TabGuard tab="practices">
              <PracticeDetailPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route
          path="system"
          element={
            <TabGuard tab="system">
              <SystemPage fallback={<PageLoading />} />
            </TabGuard>
          }
        />
        <Route path="*" element={<NotFoundResult />} />
      </Routes>
    </SettingsLayout>
  );
}
