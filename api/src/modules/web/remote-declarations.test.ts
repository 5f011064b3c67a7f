/**
 * Where the api finds a remote's declaration, and the declarations of this repository's remotes
 * (each one's src/portal-module.json) against the contract's schema.
 */
import path from 'node:path';
import { remoteDeclarationSchema } from '@portal/shared/core/schemas';
import { repoDeclarations } from '../../test/remotes';
import { declarationFileOf, declarationProblem, declarationUrlOf } from './remote-declarations';

describe('the declarations of this repository’s remotes', () => {
  it.each(Object.entries(repoDeclarations()))('%s declares its routes, menu entries and gate', (_name, declaration) => {
    expect(declarationProblem(declaration)).toBeNull();
    expect(remoteDeclarationSchema.parse(declaration)).toEqual(declaration);
  });

  it('have menu entries of their own: no key twice, no path twice', () => {
    const entries = Object.values(repoDeclarations()).flatMap((d) => d.nav);
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.path)).size).toBe(entries.length);
  });
});

describe('declarationProblem', () => {
  it('names the field that is wrong', () => {
    const good = { module: 'risks', basePath: '/risks', nav: [] };
    expect(declarationProblem(good)).toBeNull();
    expect(declarationProblem({ ...good, module: 'everything' })).toMatch(/^module: /);
    expect(declarationProblem({ ...good, basePath: 'risks' })).toBe(
      'basePath: Must be / or lowercase segments such as /reports',
    );
    expect(declarationProblem({ ...good, extra: 1 })).toMatch(/extra/);
    expect(declarationProblem([])).not.toBeNull();
  });
});

describe('declarationFileOf', () => {
  const root = path.resolve('/srv/web');
  it('finds a build’s and a release’s declaration beside their manifest', () => {
    expect(declarationFileOf(root, '/remotes/mfe-reports/mf-manifest.json')).toBe(
      path.join(root, 'mfe-reports', 'dist', 'portal-module.json'),
    );
    expect(declarationFileOf(root, '/remotes/mfe-reports/mf-manifest.json?v=2')).toBe(
      path.join(root, 'mfe-reports', 'dist', 'portal-module.json'),
    );
    expect(declarationFileOf(root, '/releases/mfe-risks/1.0.0-abc/mf-manifest.json')).toBe(
      path.join(root, 'releases', 'mfe-risks', '1.0.0-abc', 'portal-module.json'),
    );
  });

  it('never leaves the folders the api serves remotes from', () => {
    for (const entry of [
      '/remotes/../../etc/mf-manifest.json',
      '/releases/mfe-risks/../../../etc/mf-manifest.json',
      '/remotes/not-a-remote-of-this-repo/mf-manifest.json',
      '/shell/dist/mf-manifest.json',
      '//cdn.example/mf-manifest.json',
      'https://cdn.example/p/mf-manifest.json',
      '/remotes/mfe-reports/\0/mf-manifest.json',
    ]) {
      expect(declarationFileOf(root, entry)).toBeNull();
    }
  });

  it('reads a declaration on another host beside its manifest', () => {
    expect(declarationUrlOf('https://cdn.example/r/1.2/mf-manifest.json')).toBe(
      'https://cdn.example/r/1.2/portal-module.json',
    );
    expect(declarationUrlOf('/remotes/mfe-reports/mf-manifest.json')).toBeNull();
    expect(declarationUrlOf('ftp://cdn.example/mf-manifest.json')).toBeNull();
  });
});
