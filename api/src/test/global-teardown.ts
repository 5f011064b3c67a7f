/** The api jest project's globalTeardown: drops the templates global-setup.ts built. */
import { dropTemplates, templatesFromEnv, TEMPLATE_ENV } from './template';

export default async function globalTeardown(): Promise<void> {
  const templates = templatesFromEnv();
  if (!templates) return;
  await dropTemplates(templates, process.env.TEST_DATABASE_URL || null);
  delete process.env[TEMPLATE_ENV];
}
