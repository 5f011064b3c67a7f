/**
 * Keeping file storage tidy (issue 6): at start and every hour, staged leftovers of interrupted uploads
 * and blobs that no row names are removed once they are older than the grace period (an upload in
 * flight, here or on another instance, is younger). At start, files of the storage before issue 6
 * (DATA_DIR/system-files/<key>) move into the blob storage once, their rows following them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { replaceSystemSettingFileKey } from '../db/system-setting-files';
import { referencedStorageKeys } from '../db/storage-keys';
import { isStorageKey } from './storage';

const HOUR_MS = 60 * 60 * 1000;

/** One sweep with the configured grace. */
export async function sweepStorage(app: FastifyInstance): Promise<{ staged: number; orphans: number }> {
  return app.storage.sweep({
    olderThanMs: app.config.storageSweepGraceMinutes * 60 * 1000,
    isReferenced: (keys) => referencedStorageKeys(app.db, keys),
  });
}

/** Moves DATA_DIR/system-files/<key> into the storage, pointing their rows at the new keys; how many moved. */
export async function moveLegacySystemFiles(app: FastifyInstance): Promise<number> {
  const dir = path.join(app.config.dataDir, 'system-files');
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  let moved = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    if (!isStorageKey(name)) {
      // Leftovers of its atomic writes (.tmp-*): never named by a row.
      if (name.startsWith('.tmp-')) await fs.promises.rm(file, { force: true });
      continue;
    }
    try {
      moved += (await moveLegacySystemFile(app, file, name)) ? 1 : 0;
    } catch (error) {
      // Another instance moved it first (ENOENT), or it cannot be read: the start-up goes on; the file stays for the next one.
      app.log.warn({ err: error, name }, 'a legacy system-setting file was not moved into the file storage');
    }
  }
  await fs.promises.rmdir(dir).catch(() => undefined);
  return moved;
}

/** Moves one legacy file into the storage: whether a row named it. */
async function moveLegacySystemFile(app: FastifyInstance, file: string, name: string): Promise<boolean> {
  const staged = await app.storage.stage(fs.createReadStream(file), { maxBytes: Number.MAX_SAFE_INTEGER });
  const key = await staged.commit();
  let rows: number;
  try {
    rows = await replaceSystemSettingFileKey(app.db, name, key);
  } catch (error) {
    await app.storage.remove(key).catch(() => undefined);
    throw error;
  }
  // Bytes no row named are not carried over.
  if (rows === 0) await app.storage.remove(key);
  await fs.promises.rm(file, { force: true });
  return rows > 0;
}

/**
 * Registers the start-up move and sweep (before the server listens) and the hourly sweep (its timer
 * does not keep the process alive, and stops when the app closes). Call before `ready`/`listen`.
 */
export function scheduleStorageMaintenance(app: FastifyInstance, intervalMs = HOUR_MS): void {
  let timer: NodeJS.Timeout | null = null;
  const sweep = async () => {
    try {
      const { staged, orphans } = await sweepStorage(app);
      if (staged || orphans) app.log.info({ staged, orphans }, 'storage sweep removed leftovers');
    } catch (error) {
      app.log.error({ err: error }, 'storage sweep failed');
    }
  };
  app.addHook('onReady', async () => {
    const moved = await moveLegacySystemFiles(app);
    if (moved) app.log.info({ moved }, 'system-setting files moved into the file storage');
    await sweep();
    timer = setInterval(() => void sweep(), intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
