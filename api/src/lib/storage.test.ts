import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { BlobTooLargeError, LocalDiskStorage, createStorage } from './storage';

let dir: string;
let storage: LocalDiskStorage;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-storage-'));
  storage = new LocalDiskStorage(path.join(dir, 'files'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
/** Every file under the storage root, relative paths. */
const allFiles = () =>
  fs.existsSync(storage.root)
    ? (fs.readdirSync(storage.root, { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(storage.root, f)).isFile(),
      )
    : [];
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await check()).toBe(true);
}
const age = (file: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
};

describe('LocalDiskStorage', () => {
  it('stages a stream with its size, SHA-256 and head, then commits it under a random key', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10_000, 7)]);
    const staged = await storage.stage(Readable.from([bytes.subarray(0, 3000), bytes.subarray(3000)]), {
      maxBytes: 20_000,
    });
    expect(staged).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
    expect(staged.head.equals(bytes.subarray(0, 4100))).toBe(true);
    expect(await storage.stagedNames()).toHaveLength(1);
    expect(await storage.keys()).toEqual([]);

    const key = await staged.commit();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await storage.keys()).toEqual([key]);
    expect(await storage.stagedNames()).toEqual([]);
    expect(storage.pathOf(key)).toBe(path.join(storage.root, key.slice(0, 2), key));
    expect((await read((await storage.open(key))!)).equals(bytes)).toBe(true);
    // discard after commit does nothing; a second commit is refused
    await staged.discard();
    expect(await storage.keys()).toEqual([key]);
    await expect(staged.commit()).rejects.toThrow();
  });

  it('discards staged bytes, and discarding twice is harmless', async () => {
    const staged = await storage.stage(Readable.from([Buffer.from('hello')]), { maxBytes: 10 });
    await staged.discard();
    await staged.discard();
    expect(allFiles()).toEqual([]);
  });

  it('takes exactly maxBytes, refuses one byte more with BlobTooLargeError, leaves nothing and drains the source', async () => {
    const ok = await storage.stage(Readable.from([Buffer.alloc(100)]), { maxBytes: 100 });
    expect(ok.size).toBe(100);
    await ok.discard();

    const source = new PassThrough();
    const staging = storage.stage(source, { maxBytes: 100 });
    source.write(Buffer.alloc(60));
    source.write(Buffer.alloc(60));
    await expect(staging).rejects.toBeInstanceOf(BlobTooLargeError);
    // the rest still flows (and is dropped), so the request can be answered
    let ended = false;
    source.on('end', () => (ended = true));
    source.end(Buffer.alloc(1000));
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(true);
    expect(allFiles()).toEqual([]);
  });

  it('removes the staged bytes when the source fails or is cut short', async () => {
    const failing = new PassThrough();
    const first = storage.stage(failing, { maxBytes: 1000 });
    failing.write(Buffer.alloc(50));
    await until(async () => (await storage.stagedNames()).length === 1);
    failing.destroy(new Error('connection reset'));
    await expect(first).rejects.toThrow('connection reset');

    const cut = new PassThrough();
    const second = storage.stage(cut, { maxBytes: 1000 });
    cut.write(Buffer.alloc(50));
    await until(async () => (await storage.stagedNames()).length === 1);
    cut.destroy();
    await expect(second).rejects.toThrow(/interrupted/);
    expect(allFiles()).toEqual([]);
  });

  it('stores buffers, opens nothing for unknown or malformed keys, and removes idempotently', async () => {
    const { key, size, sha256 } = await storage.putBuffer(Buffer.from('seed'));
    expect([size, sha256]).toEqual([4, sha(Buffer.from('seed'))]);
    expect((await read((await storage.open(key))!)).toString()).toBe('seed');
    expect(await storage.open('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await storage.open('../../etc/passwd')).toBeNull();
    expect(() => storage.pathOf('../x')).toThrow('invalid storage key');
    await storage.remove('../../x');
    await storage.remove(key);
    await storage.remove(key);
    expect(await storage.open(key)).toBeNull();
    expect((await storage.putBuffer(Buffer.alloc(0))).size).toBe(0);
  });

  it('sweeps old staged leftovers and old blobs no row names, and nothing younger than the grace', async () => {
    const referenced = await storage.putBuffer(Buffer.from('kept: a row names it'));
    const orphan = await storage.putBuffer(Buffer.from('orphan'));
    const young = await storage.putBuffer(Buffer.from('young orphan: its row may be on its way'));
    const oldStaged = await storage.stage(Readable.from([Buffer.from('old leftover')]), { maxBytes: 100 });
    const youngStaged = await storage.stage(Readable.from([Buffer.from('in flight')]), { maxBytes: 100 });
    const [oldName, youngName] = await storage.stagedNames().then((names) => {
      const stats = names.map((n) => ({ n, t: fs.statSync(path.join(storage.stagingDir, n)).mtimeMs }));
      return [stats[0].n, stats[1].n];
    });
    age(path.join(storage.stagingDir, oldName), 60 * 60_000);
    for (const key of [referenced.key, orphan.key]) age(storage.pathOf(key), 60 * 60_000);

    const asked: string[][] = [];
    const result = await storage.sweep({
      olderThanMs: 15 * 60_000,
      isReferenced: async (keys) => {
        asked.push(keys);
        return new Set(keys.filter((k) => k === referenced.key));
      },
    });
    expect(result).toEqual({ staged: 1, orphans: 1 });
    expect(asked.flat().sort()).toEqual([referenced.key, orphan.key].sort());
    expect((await storage.keys()).sort()).toEqual([referenced.key, young.key].sort());
    expect(await storage.stagedNames()).toEqual([youngName]);
    void oldStaged;
    await youngStaged.discard();
  });

  it('lives under DATA_DIR/files', () => {
    expect((createStorage({ dataDir: dir }) as LocalDiskStorage).root).toBe(path.join(dir, 'files'));
  });
});
