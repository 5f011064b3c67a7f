import { screen } from '@testing-library/react';
import { AddressQuery, renderWithProviders } from '@portal/shared/testing';
import { useSearchParams } from '@portal/shared/web/router';
import { useCompanySwitch } from './company-switch';

const withoutProject = (params: URLSearchParams) => {
  const next = new URLSearchParams(params);
  next.delete('project');
  return next;
};

/** Every render of the page: what it would ask the api for (nothing while it switches). */
let asked: string[] = [];

function Page({ companyId }: { companyId: string | null }) {
  const switching = useCompanySwitch(companyId, withoutProject);
  const [params] = useSearchParams();
  if (!switching && companyId) asked.push(`${companyId}?${params.toString()}`);
  return <AddressQuery />;
}

const query = () => screen.getByLabelText('query').textContent;

beforeEach(() => {
  asked = [];
});

describe('useCompanySwitch', () => {
  it("drops the old company's filters from the address when another company is chosen, and never asks with them", () => {
    const { rerender } = renderWithProviders(<Page companyId="c1" />, { route: '/list?project=p1&status=open' });
    rerender(<Page companyId="c2" />);
    expect(query()).toBe('?status=open');
    expect([...new Set(asked)]).toEqual(['c1?project=p1&status=open', 'c2?status=open']);
  });

  it('keeps the address when no company was selected before, and when it names nothing of the old company', () => {
    const { rerender } = renderWithProviders(<Page companyId={null} />, { route: '/list?project=p1' });
    rerender(<Page companyId="c1" />);
    expect(query()).toBe('?project=p1');
    rerender(<Page companyId="c2" />);
    expect(query()).toBe('');
    rerender(<Page companyId="c3" />);
    expect(query()).toBe('');
    expect([...new Set(asked)]).toEqual(['c1?project=p1', 'c2?', 'c3?']);
  });
});
