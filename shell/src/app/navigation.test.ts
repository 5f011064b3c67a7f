import { REMOTE_MODULES } from '@portal/shared/core/modules';
import { activeKey, NAV_ITEMS, navigationFor, ungatedRemoteFor } from './navigation';
import { chooseCompany } from '../session/sign-in';

describe('NAV_ITEMS', () => {
  // the api lists a remote in /remotes.json by REMOTE_MODULES: the navigation gates it by the same module
  it('gates each remote by the module REMOTE_MODULES names', () => {
    expect(Object.fromEntries(NAV_ITEMS.map((i) => [i.remote, i.module]))).toEqual(REMOTE_MODULES);
  });
});

describe('navigationFor', () => {
  it('shows only the modules the user may use, and settings always', () => {
    const access = { risks: true, projects: true, requests: true, reports: false, assets: true };
    expect(navigationFor(access).map((n) => n.label)).toEqual(['Projects', 'Safe Transfer', 'Requests', 'Settings']);
    expect(navigationFor(null).map((n) => n.label)).toEqual(['Settings']);
  });
  it('marks the active entry from the path', () => {
    expect(activeKey('/')).toBe('home');
    expect(activeKey('/requests/12')).toBe('requests');
    expect(activeKey('/v2/projects/p1/tasks/t1')).toBe('projects');
    expect(activeKey('/reportsx')).toBe('');
    expect(activeKey('/safe-transfer')).toBe('safe-transfer');
  });
  it('names the remote of a page no module gates (settings), and no other', () => {
    expect(ungatedRemoteFor('/settings')).toBe('mfe-settings');
    expect(ungatedRemoteFor('/settings/teams')).toBe('mfe-settings');
    expect(ungatedRemoteFor('/settingsx')).toBeNull();
    expect(ungatedRemoteFor('/requests')).toBeNull();
    expect(ungatedRemoteFor('/')).toBeNull();
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
