import { existsSync } from 'fs';
import path from 'path';
import { WEB_PACKAGES } from './portal-server';

/**
 * Checks once that the web is built; each worker then starts a portal of its own on it
 * (tests/fixtures.ts).
 */
export default function globalSetup(): void {
  const missing = WEB_PACKAGES.filter((pkg) => !existsSync(path.join(__dirname, '..', pkg, 'dist')));
  if (missing.length) throw new Error(`${missing.join(', ')}: no dist, run \`npm run build\` first`);
}
