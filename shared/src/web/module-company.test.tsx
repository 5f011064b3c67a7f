import { screen } from '@testing-library/react';
import type { AccessPermissions, Company } from '@portal/shared/core/schemas';
import { renderWithProviders } from '@portal/shared/testing';
import { useModuleCompany } from './module-company';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };

function Page({ what }: { what?: string }) {
  const target = useModuleCompany('reports', what);
  return 'blocked' in target ? <>{target.blocked}</> : <p>{`${target.companyId} ${target.companyName}`}</p>;
}

const access = (reports: boolean) => ({ modulesAccess: { ...ALL_ON, reports } }) as unknown as AccessPermissions;

describe('useModuleCompany', () => {
  it('gives the selected company when the module is open to the user there', () => {
    renderWithProviders(<Page />, { session: { companies: [acme], selectedCompanyId: 'c1', access: access(true) } });
    expect(screen.getByText('c1 Acme Corp')).toBeInTheDocument();
  });

  it('says to choose a company when none is selected, naming what the page shows', () => {
    renderWithProviders(<Page what="team's workload" />, { session: { companies: [acme], selectedCompanyId: null } });
    expect(screen.getByText('No company selected')).toBeInTheDocument();
    expect(screen.getByText("Choose a company in the header to see its team's workload.")).toBeInTheDocument();
  });

  it('says the module is not available when the company or the user has it off', () => {
    const { unmount } = renderWithProviders(<Page />, {
      session: { companies: [{ ...acme, modulesAccess: { ...ALL_ON, reports: false } }], selectedCompanyId: 'c1' },
    });
    expect(screen.getByText('Reports are not available')).toBeInTheDocument();
    expect(screen.getByText('Your access to Acme Corp does not include the reports module.')).toBeInTheDocument();
    unmount();
    renderWithProviders(<Page />, { session: { companies: [acme], selectedCompanyId: 'c1', access: access(false) } });
    expect(screen.getByText('Reports are not available')).toBeInTheDocument();
  });
});
