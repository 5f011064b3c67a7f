import { useSelector } from '@portal/shared/web/store';
import { ComingSoon, PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

/**
 * Home: the dashboard. Its project list, charts and "my requests" arrive with the projects module.
 * This is the first page after sign-in: it uses only the first-page UI kit.
 */
export function DashboardPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  return (
    <div data-testid="dashboard">
      <PageHeader title="Home" />
      <p>
        Welcome{user ? `, ${user.firstName}` : ''}.{company ? ` You are working in ${company.name}.` : ' No company is selected.'}
      </p>
      <ComingSoon what="The project list, activation, charts and 'my requests'" />
    </div>
  );
}
