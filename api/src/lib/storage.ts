/**
 * Where file bytes live (issue 6). One interface; local disk under DATA_DIR/files by default, and an
 * object store can implement it later. Bytes are staged under a temporary name while they stream in,
 * checked, then committed (moved into place under a random key); a database row may name a key only
 * after `commit` returned. Keys are random UUIDs, never derived from a user's file name.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppConfig } from '../config';

export interface StagedBlob {
  /** Bytes received. */
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** The first bytes (up to 4100), for the content check. */
  head: Buffer;
  /** Moves the bytes into place and answers their key. Call once; afterwards `discard` is a no-op. */
  commit(): Promise<string>;
  /** Removes the staged bytes (before commit). Never throws. */
  discard(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}

/** The source ended without its end (the client's connection was cut, or the part was cut short). */
export class BlobStreamAbortedError extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
  constructor() {
    super('The upload was interrupted before it ended.');
    this.name = 'BlobStreamAbortedError';
  }
}

export interface BlobStorage {
  /**
   * Streams `source` to a temporary name, counting and hashing. Rejects with BlobTooLargeError past
   * `maxBytes` (the staged bytes are removed, the source is drained), or with the source's error when
   * the stream fails or is aborted (removed too): nothing is left behind.
   */
  stage(source: Readable, options: { maxBytes: number }): Promise<StagedBlob>;
  /** Stores a whole buffer (seed data, small files): stage + commit. */
  putBuffer(buffer: Buffer): Promise<{ key: string; size: number; sha256: string }>;
  /** The bytes under `key`, or null when there are none. */
  open(key: string): Promise<Readable | null>;
  /** A missing key is not an error. */
  remove(key: string): Promise<void>;
  /**
   * Removes staged leftovers and committed blobs that no row names, older than `olderThanMs` (so an
   * upload in flight on another instance is never touched). `isReferenced` answers for a batch of keys.
   */
  sweep(options: {
    olderThanMs: number;
    isReferenced: (keys: string[]) => Promise<Set<string>>;
  }): Promise<{ staged: number; orphans: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: BlobStorage;
  }
}

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHARD_PATTERN = /^[0-9a-f]{2}$/;
const HEAD_BYTES = 4100;
const SWEEP_BATCH = 500;

/** Whether `key` is a storage key (a random UUID): anything else never reaches a path. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

const ignore = () => undefined;

/**
 * Blobs on local disk: `<root>/.staging/<uuid>` while streaming in, then `<root>/<ab>/<key>` where
 * `ab` is the key's first two characters (a few hundred entries per folder, not millions in one).
 */
export class LocalDiskStorage implements BlobStorage {
  readonly stagingDir: string;

  constructor(readonly root: string) {
    this.stagingDir = path.join(root, '.staging');
  }

  /** The path of a committed blob; throws for anything that is not a key (never joins a user's input). */
  pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    return path.join(this.root, key.slice(0, 2), key);
  }

  async stage(source: Readable, { maxBytes }: { maxBytes: number }): Promise<StagedBlob> {
    // Nothing is awaited before the listeners below are on the source: an error or a cut emitted
    // meanwhile would otherwise be missed, and the stage would wait forever.
    fs.mkdirSync(this.stagingDir, { recursive: true });
    const temp = path.join(this.stagingDir, randomUUID());
    const out = fs.createWriteStream(temp, { flags: 'wx' });
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;

    const outClosed = new Promise<void>((resolve) => out.once('close', () => resolve()));
    const received = new Promise<void>((resolve, reject) => {
      let settled = false;
      let sourceEnded = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        source.off('data', onData);
        out.off('drain', onDrain);
        if (error) {
          reject(error);
        } else {
          resolve();
        }
      };
      const fail = (error: Error) => {
        if (settled) return;
        // Later errors of either stream (after we gave up on them) must not crash the process.
        source.on('error', ignore);
        out.on('error', ignore);
        out.destroy();
        settle(error);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          fail(new BlobTooLargeError(maxBytes));
          // Read the rest and drop it, so the request can still be answered.
          source.resume();
          return;
        }
        hash.update(chunk);
        if (headLength < HEAD_BYTES) {
          const part = chunk.subarray(0, HEAD_BYTES - headLength);
          head.push(part);
          headLength += part.length;
        }
        if (!out.write(chunk)) source.pause();
      };
      const onDrain = () => source.resume();
      source.on('data', onData);
      out.on('drain', onDrain);
      source.once('end', () => {
        sourceEnded = true;
        out.end();
      });
      source.once('error', (error: Error) => fail(error));
      source.once('aborted', () => fail(new BlobStreamAbortedError()));
      source.once('close', () => {
        if (!sourceEnded) fail(new BlobStreamAbortedError());
      });
      out.once('error', (error: Error) => fail(error));
      out.once('finish', () => settle());
      // A source that ended, failed or was cut before we were handed it emits nothing more.
      if (source.readableEnded) {
        sourceEnded = true;
        out.end();
      } else if (source.errored) {
        fail(source.errored);
      } else if (source.destroyed) {
        fail(new BlobStreamAbortedError());
      }
    });

    try {
      await received;
      await outClosed;
    } catch (error) {
      await outClosed;
      await fs.promises.rm(temp, { force: true }).catch(ignore);
      throw error;
    }

    let done = false;
    const blob: StagedBlob = {
      size,
      sha256: hash.digest('hex'),
      head: Buffer.concat(head),
      commit: async () => {
        if (done) throw new Error('the staged blob was already committed or discarded');
        done = true;
        const key = randomUUID();
        const target = this.pathOf(key);
        try {
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          await fs.promises.rename(temp, target);
        } catch (error) {
          await fs.promises.rm(temp, { force: true }).catch(ignore);
          throw error;
        }
        // The sweep's grace counts from the commit, not from when the bytes started to arrive.
        const now = new Date();
        await fs.promises.utimes(target, now, now).catch(ignore);
        return key;
      },
      discard: async () => {
        if (done) return;
        done = true;
        await fs.promises.rm(temp, { force: true }).catch(ignore);
      },
    };
    return blob;
  }

  async putBuffer(buffer: Buffer): Promise<{ key: string; size: number; sha256: string }> {
    const staged = await this.stage(Readable.from([buffer]), { maxBytes: Math.max(buffer.length, 1) });
    const key = await staged.commit();
    return { key, size: staged.size, sha256: staged.sha256 };
  }

  async open(key: string): Promise<Readable | null> {
    if (!isStorageKey(key)) return null;
    const file = this.pathOf(key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch {
      return null;
    }
    // From the handle already open: a blob removed meanwhile is still served whole, or not at all.
    return handle.createReadStream();
  }

  async remove(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  /** Every committed key (tests and the sweep). */
  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for (const shard of await readdirOrEmpty(this.root)) {
      if (!SHARD_PATTERN.test(shard)) continue;
      for (const name of await readdirOrEmpty(path.join(this.root, shard))) {
        if (isStorageKey(name) && name.startsWith(shard)) keys.push(name);
      }
    }
    return keys;
  }

  /** Names under the staging folder (tests). */
  async stagedNames(): Promise<string[]> {
    return readdirOrEmpty(this.stagingDir);
  }

  async sweep({
    olderThanMs,
    isReferenced,
  }: {
    olderThanMs: number;
    isReferenced: (keys: string[]) => Promise<Set<string>>;
  }): Promise<{ staged: number; orphans: number }> {
    const cutoff = Date.now() - olderThanMs;
    const isOld = async (file: string) => {
      try {
        return (await fs.promises.stat(file)).mtimeMs < cutoff;
      } catch {
        return false;
      }
    };

    let staged = 0;
    for (const name of await readdirOrEmpty(this.stagingDir)) {
      const file = path.join(this.stagingDir, name);
      if (await isOld(file)) {
        await fs.promises.rm(file, { force: true, recursive: true });
        staged += 1;
      }
    }

    let orphans = 0;
    const candidates: string[] = [];
    const flush = async () => {
      const batch = candidates.splice(0);
      if (batch.length === 0) return;
      const referenced = await isReferenced(batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await this.remove(key);
        orphans += 1;
      }
    };
    for (const key of await this.keys()) {
      if (!(await isOld(this.pathOf(key)))) continue;
      candidates.push(key);
      if (candidates.length >= SWEEP_BATCH) await flush();
    }
    await flush();
    return { staged, orphans };
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The folder of file bytes in a data directory. */
export function filesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

/** The storage this configuration names: local disk under DATA_DIR/files (an object store can be chosen here later). */
export function createStorage(config: Pick<AppConfig, 'dataDir'>): BlobStorage {
  return new LocalDiskStorage(filesDir(config.dataDir));
}
