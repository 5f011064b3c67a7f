import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HomeOutlined, ProjectOutlined } from '@portal/shared/ui';
import { MemoryRouter, Route, Routes, useLocation } from '@portal/shared/web/router';
import { NavList } from './components';

const items = [
  { key: 'home', label: 'Home', path: '/', icon: <HomeOutlined /> },
  { key: 'projects', label: 'Projects', path: '/v2/projects', icon: <ProjectOutlined /> },
];

function Where() {
  return <output aria-label="path">{useLocation().pathname}</output>;
}

function renderNav(collapsed: boolean) {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <nav aria-label="Main">
        <NavList items={items} activeKey="home" dark={false} collapsed={collapsed} />
      </nav>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('NavList', () => {
  it('is a list of links; the current page is marked, and a link navigates', async () => {
    renderNav(false);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('listitem')).toHaveLength(2);
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Projects' })).not.toHaveAttribute('aria-current');
    await userEvent.click(within(nav).getByRole('link', { name: 'Projects' }));
    expect(screen.getByLabelText('path')).toHaveTextContent('/v2/projects');
  });

  it('collapsed, each link keeps its name for assistive technology and as a tooltip', () => {
    renderNav(true);
    const projects = screen.getByRole('link', { name: 'Projects' });
    expect(projects).toHaveAttribute('title', 'Projects');
    expect(projects).toHaveAttribute('href', '/v2/projects');
  });
});

describe('NavList without icons (the settings tabs)', () => {
  it('shows each name and marks the current tab', () => {
    render(
      <MemoryRouter>
        <nav aria-label="Settings">
          <NavList
            items={[
              { key: 'personal', label: 'Personal', path: '/settings/personal' },
              { key: 'teams', label: 'Teams', path: '/settings/teams' },
            ]}
            activeKey="teams"
          />
        </nav>
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Teams' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Personal' })).toBeVisible();
  });
});
