import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './disk';

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Files on local disk under DATA_DIR/system-files, named by a random key, never by the upload's name. */
export class SystemFileStore {
  constructor(private readonly dir: string) {}

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error('invalid storage key');
    return path.join(this.dir, key);
  }

  async put(buffer: Buffer): Promise<string> {
    const key = randomUUID();
    await writeFileAtomic(this.dir, key, buffer);
    return key;
  }

  async open(key: string): Promise<fs.ReadStream | null> {
    const file = this.pathOf(key);
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch {
      return null;
    }
    return fs.createReadStream(file);
  }

  /** A missing file is not an error. */
  async remove(key: string): Promise<void> {
    if (KEY_PATTERN.test(key)) await fs.promises.rm(this.pathOf(key), { force: true });
  }
}

/** The store of system-setting files of this data directory. */
export function systemFileStore(dataDir: string): SystemFileStore {
  return new SystemFileStore(path.join(dataDir, 'system-files'));
}
