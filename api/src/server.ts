import { buildApp } from './app';
import { loggerOptions } from './logging';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { describePostgresUrl, openDatabase, pingDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { seedIfEmpty } from './db/seed';
import { scheduleStorageMaintenance } from './lib/storage-maintenance';
import { createStorage } from './lib/storage';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  if (config.databaseUrl) {
    try {
      await pingDatabase(database.db);
    } catch (error) {
      const reason = error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code : String(error);
      await database.close().catch(() => undefined);
      // One line, and never the password: only host, port and database name are printed.
      fail(`Cannot connect to PostgreSQL at ${describePostgresUrl(config.databaseUrl)}: ${reason}`);
    }
  }

  await migrateToLatest(database.db, database.dialect);
  await seedIfEmpty(database.db, { storage: createStorage(config) });

  const app = buildApp({ db: database.db, config, logger: loggerOptions() });
  // Leftovers of uploads cut short (a crash, a lost connection) go at start, then every hour.
  scheduleStorageMaintenance(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: closing`);
    try {
      await app.close(); // stops accepting, waits for in-flight requests
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(`Portal listening on http://localhost:${port}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Portal failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
