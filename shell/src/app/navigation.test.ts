import type { PortalRemote } from '@portal/shared/core/schemas';
import { activeKeyOf, navigationFor } from './navigation';
import { chooseCompany } from '../session/sign-in';
import { PORTAL_REMOTES as REMOTES } from './testing-remotes';

describe('navigationFor', () => {
  it('shows the entries of the remotes the user may use, by their declared order, and settings always', () => {
    const access = { risks: true, projects: true, requests: true, reports: false, assets: true };
    expect(navigationFor(REMOTES, access).map((n) => n.label)).toEqual([
      'Projects',
      'Safe Transfer',
      'Requests',
      'Settings',
    ]);
    expect(navigationFor(REMOTES, null).map((n) => n.label)).toEqual(['Settings']);
    expect(navigationFor([], access)).toEqual([]);
  });
  it('takes a remote it has never heard of from its declaration, gated by its module', () => {
    const risks: PortalRemote = {
      name: 'mfe-risks',
      module: 'risks',
      basePath: '/risks',
      nav: [{ key: 'risks', label: 'Risks', path: '/risks', icon: 'risks', order: 35 }],
    };
    const on = { risks: true, projects: false, requests: true, reports: false, assets: false };
    expect(navigationFor([...REMOTES, risks], on).map((n) => [n.label, n.remote])).toEqual([
      ['Requests', 'mfe-requests'],
      ['Risks', 'mfe-risks'],
      ['Settings', 'mfe-settings'],
    ]);
    expect(navigationFor([...REMOTES, risks], { ...on, risks: false }).map((n) => n.label)).not.toContain('Risks');
    expect(activeKeyOf(navigationFor([...REMOTES, risks], on), '/risks/r1')).toBe('risks');
  });
  it('marks the active entry from the path', () => {
    const all = navigationFor(REMOTES, { risks: true, projects: true, requests: true, reports: true, assets: true });
    expect(activeKeyOf(all, '/')).toBe('home');
    expect(activeKeyOf(all, '/dashboard')).toBe('home');
    expect(activeKeyOf(all, '/requests/12')).toBe('requests');
    expect(activeKeyOf(all, '/v2/projects/p1/tasks/t1')).toBe('projects');
    expect(activeKeyOf(all, '/reportsx')).toBe('');
    expect(activeKeyOf(all, '/safe-transfer')).toBe('safe-transfer');
  });
});

describe('chooseCompany', () => {
  it('keeps the remembered company while the user still belongs to it, else takes the first', () => {
    expect(chooseCompany(['a', 'b'], 'b')).toBe('b');
    expect(chooseCompany(['a', 'b'], 'gone')).toBe('a');
    expect(chooseCompany(['a'], null)).toBe('a');
    expect(chooseCompany([], 'a')).toBeNull();
  });
});
