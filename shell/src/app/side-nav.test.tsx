import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HomeOutlined, ProjectOutlined } from '@portal/shared/ui';
import { MemoryRouter, Route, Routes, useLocation } from '@portal/shared/web/router';
import { SideNav } from './side-nav';

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
        <SideNav items={items} activeKey="home" dark={false} collapsed={collapsed} />
      </nav>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('SideNav', () => {
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
