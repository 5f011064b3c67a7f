/** The api jest project's globalSetup: builds the run's test templates once (template.ts). */
import { buildTemplates, TEMPLATE_ENV } from './template';

export default async function globalSetup(): Promise<void> {
  const templates = await buildTemplates(process.env.TEST_DATABASE_URL || null);
  // jest starts its workers after this, with this process's environment
  process.env[TEMPLATE_ENV] = JSON.stringify(templates);
}
