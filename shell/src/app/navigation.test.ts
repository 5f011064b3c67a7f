import fs from 'node:fs';
import path from 'node:path';
import type { RemoteDeclaration } from '@portal/shared/core/schemas';
import { activeKey, NAV_ITEMS, navigationFor, ungatedRemoteFor } from './navigation';
import { chooseCompany } from '../session/sign-in';

/** What each remote declares of itself (its src/portal-module.json, which the api gates it by). */
function declarationOf(remote: string): RemoteDeclaration {
  return JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '..', '..', '..', remote, 'src', 'portal-module.json'), 'utf8'),
  ) as RemoteDeclaration;
}

describe('NAV_ITEMS', () => {
  // the api lists a remote in /remotes.json by the module its declaration names: the menu gates it by
  // the same module and shows the entries it declares
  it('gates and names each remote as its declaration does', () => {
    for (const remote of new Set(NAV_ITEMS.map((i) => i.remote))) {
      const declaration = declarationOf(remote);
      const items = NAV_ITEMS.filter((i) => i.remote === remote);
      expect(items.map((i) => i.module)).toEqual(items.map(() => declaration.module));
      expect(items.map(({ key, label, path }) => ({ key, label, path }))).toEqual(
        declaration.nav.map(({ key, label, path }) => ({ key, label, path })),
      );
    }
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
