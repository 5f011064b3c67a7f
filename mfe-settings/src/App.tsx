import { useSelector } from '@portal/shared/web/store';
import { Navigate, Route, Routes } from '@portal/shared/web/router';
import { NotFoundResult } from '@portal/shared/ui/components';
import type { RemoteAppProps } from '@portal/shared/web/remote';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import {
  CompanyUserPage,
  PersonalSettingsPage,
  PracticeDetailPage,
  SettingsTabPage,
  StaffUserPracticesPage,
} from './features/settings/components/settings-pages';


/** mfe-settings: mounted by the shell at /settings; settings permissions decide inside (SPEC.md section 2). */
export default function SettingsApp(_props: RemoteAppProps) {
  const BRAND = useSelector((s: { session: SessionState }) => sessionSelectors.selectBrand(s));
  return (
    <Routes>
      <Route index element={<PersonalSettingsPage />} />
      <Route path="personal" element={<PersonalSettingsPage />} />
      <Route path="company" element={<SettingsTabPage title="Company" what="Company settings" />} />
      <Route path="company/user/:userId" element={<CompanyUserPage />} />
      <Route path="clients" element={<SettingsTabPage title="Clients" what="Clients" />} />
      <Route path="teams" element={<SettingsTabPage title="Teams" what="Teams" />} />
      <Route path="tevora" element={<SettingsTabPage title={BRAND} what={`The ${BRAND} staff list`} />} />
      <Route path="tevora/user/:userId" element={<StaffUserPracticesPage brand={BRAND} />} />
      <Route path="practices" element={<SettingsTabPage title="Practices & Templates" what="Practices & Templates" />} />
      <Route path="templates" element={<Navigate to="../practices" replace />} />
      <Route path="practices/:practiceId" element={<PracticeDetailPage />} />
      <Route path="system" element={<SettingsTabPage title="System Admin" what="System Admin" />} />
      <Route path="*" element={<NotFoundResult />} />
    </Routes>
  );
}
