import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes `buffer` to `dir/name` through a temporary name and a rename, so `name` never holds
 * half-written bytes: a crash leaves at most a `.tmp-*` file, never a truncated one under its key.
 */
export async function writeFileAtomic(dir: string, name: string, buffer: Buffer): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.tmp-${randomUUID()}`);
  try {
    await fs.promises.writeFile(temp, buffer, { flag: 'wx' });
    await fs.promises.rename(temp, path.join(dir, name));
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
