import { startPortal } from './portal-server';

/** Starts the real portal for this run and hands its address to the tests through the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const portal = await startPortal();
  process.env.E2E_BASE_URL = portal.baseURL;
  process.env.E2E_DATA_DIR = portal.dataDir;
  return () => portal.stop();
}
