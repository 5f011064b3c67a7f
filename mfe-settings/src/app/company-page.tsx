import { useSelector } from '@portal/shared/web/store';
import { useSearchParams } from '@portal/shared/web/router';
import { Tabs } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { CompanyIdentityProvider } from '../features/company/components/identity-provider';
import { CompanyInformation } from '../features/company/components/company-information';
import { CompanyModules } from '../features/company/components/company-modules';
import { CompanyPasswordPolicy } from '../features/company/components/password-policy';
import { CompanyUsers } from '../features/company-users/components/company-users';
import { useTabContext } from './settings-layout';

type Root = { session: SessionState };

/**
 * The Company tab: the selected company's information, users, module access, password policy and
 * single sign-on, as sections whose choice is kept in the address (`?tab=users`). Each control is
 * enabled only with the matching settings permission; the api enforces the same.
 */
export function CompanyPage() {
  const company = useSelector((s: Root) => sessionSelectors.selectSelectedCompany(s));
  const { permissions } = useTabContext();
  const [params, setParams] = useSearchParams();
  if (!company || !permissions) return null;
  const p = permissions.company;
  const sections = [
    {
      key: 'information',
      label: 'Information',
      children: <CompanyInformation companyId={company.id} canEdit={p.editInformation} />,
    },
    ...(p.editUsersAndTeams
      ? [{ key: 'users', label: 'Users', children: <CompanyUsers companyId={company.id} /> }]
      : []),
    {
      key: 'modules',
      label: 'Module access',
      children: <CompanyModules companyId={company.id} canEdit={p.editModulesAccess} />,
    },
    {
      key: 'password-policy',
      label: 'Password policy',
      children: <CompanyPasswordPolicy companyId={company.id} canEdit={p.editInformation} />,
    },
    {
      key: 'sso',
      label: 'Single sign-on',
      children: <CompanyIdentityProvider companyId={company.id} canEdit={p.editInformation} />,
    },
  ];
  const requested = params.get('tab');
  const active = sections.some((s) => s.key === requested) ? requested! : 'information';
  return (
    <div data-testid="settings-company">
      <PageHeader title={company.name} crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Company' }]} />
      <Tabs
        activeKey={active}
        destroyOnHidden
        onChange={(key) =>
          setParams((prev) => {
            const next = new URLSearchParams(prev);
            next.set('tab', key);
            return next;
          })
        }
        items={sections}
      />
    </div>
  );
}
