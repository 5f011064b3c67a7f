/**
 * The declarations of this repository's remotes (each one's src/portal-module.json, read, not copied
 * into the tests), placed in a test app's web root as a build publishes them: the api then gates,
 * lists and describes the remotes as it does for a built portal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REMOTES } from '@portal/shared/core/modules';
import type { RemoteDeclaration } from '@portal/shared/core/schemas';
import { DECLARATION_FILE } from '../modules/web/remote-declarations';

const REPO = path.resolve(__dirname, '..', '..', '..');

/** Each remote of this repository and what it declares. */
export function repoDeclarations(): Record<string, RemoteDeclaration> {
  return Object.fromEntries(
    REMOTES.map((name) => [
      name,
      JSON.parse(fs.readFileSync(path.join(REPO, name, 'src', 'portal-module.json'), 'utf8')) as RemoteDeclaration,
    ]),
  );
}

/** Writes `declaration` where a build of `remote` served from `/remotes/<remote>/` would have it. */
export function placeDeclaration(webRoot: string, remote: string, declaration: unknown): void {
  const dir = path.join(webRoot, remote, 'dist');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, DECLARATION_FILE), JSON.stringify(declaration));
}

/** The declarations of every remote of this repository, in `webRoot`. */
export function placeRepoDeclarations(webRoot: string): void {
  for (const [remote, declaration] of Object.entries(repoDeclarations()))
    placeDeclaration(webRoot, remote, declaration);
}
