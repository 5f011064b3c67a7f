import { Navigate, Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { CompanyPage } from './app/company-page';
import { SettingsLayout, TabGuard } from './app/settings-layout';
import { ClientsPage } from './features/clients/components/clients-page';
import { CompanyUserPage } from './features/company-users/components/company-user-page';
import { PersonalPage } from './features/personal/components/personal-page';
import { PracticeDetailPage, PracticesPage } from './features/practices/components/practices-pages';
import { StaffPage } from './features/staff/components/staff-page';
import { StaffUserPage } from './features/staff/components/staff-user-page';
import { SystemPage } from './features/system/components/system-page';
import { TeamsPage } from './features/teams/components/teams-page';

/** mfe-settings: mounted by the shell at /settings; settings permissions decide inside (SPEC.md section 2). */
export default function SettingsApp(_props: RemoteAppProps) {
  return (
    <SettingsLayout>
      <Routes>
        <Route index element={<PersonalPage />} />
        <Route path="personal" element={<PersonalPage />} />
        <Route path="company" element={<TabGuard tab="company"><CompanyPage /></TabGuard>} />
        <Route path="company/user/:userId" element={<TabGuard tab="teams"><CompanyUserPage /></TabGuard>} />
        <Route path="clients" element={<TabGuard tab="clients"><ClientsPage /></TabGuard>} />
        <Route path="teams" element={<TabGuard tab="teams"><TeamsPage /></TabGuard>} />
        <Route path="tevora" element={<TabGuard tab="tevora"><StaffPage /></TabGuard>} />
        <Route path="tevora/user/:userId" element={<TabGuard tab="tevora"><StaffUserPage /></TabGuard>} />
        <Route path="practices" element={<TabGuard tab="practices"><PracticesPage /></TabGuard>} />
        <Route path="templates" element={<Navigate to="../practices" replace />} />
        <Route path="practices/:practiceId" element={<TabGuard tab="practices"><PracticeDetailPage /></TabGuard>} />
        <Route path="system" element={<TabGuard tab="system"><SystemPage /></TabGuard>} />
        <Route path="*" element={<NotFoundResult />} />
      </Routes>
    </SettingsLayout>
  );
}
