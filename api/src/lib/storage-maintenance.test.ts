import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { SignedUrl } from '@portal/shared/core/files';
import { createTestApp, type TestApp } from '../test/app';
import type { LocalDiskStorage } from './storage';
import { moveLegacySystemFiles, scheduleStorageMaintenance, sweepStorage } from './storage-maintenance';

const LEGACY = Buffer.from('%PDF-1.4 a file of the old store\n');
const legacyKey = randomUUID();
const legacyOrphan = randomUUID();
const fileId = randomUUID();
const HOUR = 60 * 60 * 1000;
let t: TestApp;
let oldOrphan = '';
let youngOrphan = '';

const storage = () => t.app.storage as LocalDiskStorage;
const age = (file: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
};

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      // The store before issue 6: DATA_DIR/system-files/<key>, one file named by a row, one by none, a temp leftover.
      const legacyDir = path.join(app.config.dataDir, 'system-files');
      fs.mkdirSync(legacyDir, { recursive: true });
      fs.writeFileSync(path.join(legacyDir, legacyKey), LEGACY);
      fs.writeFileSync(path.join(legacyDir, legacyOrphan), 'nobody names me');
      fs.writeFileSync(path.join(legacyDir, '.tmp-123'), 'half');
      app.addHook('onReady', async () => {
        const message = await app.db
          .selectFrom('portal_messages')
          .select('id')
          .where('key', '=', 'help')
          .executeTakeFirstOrThrow();
        await app.db
          .insertInto('system_setting_files')
          .values({
            id: fileId,
            message_id: message.id,
            name: 'runbook.pdf',
            content_type: 'application/pdf',
            size: LEGACY.length,
            sha256: 'x',
            storage_key: legacyKey,
            uploaded_by: null,
            created_at: new Date().toISOString(),
          })
          .execute();
        // leftovers of a crash: an old staged upload and an old blob no row names; and a young one, maybe still in flight
        const local = app.storage as LocalDiskStorage;
        const staged = await local.stage(Readable.from([Buffer.from('cut short')]), { maxBytes: 100 });
        age(path.join(local.stagingDir, (await local.stagedNames())[0]), HOUR);
        void staged;
        oldOrphan = (await local.putBuffer(Buffer.from('orphan'))).key;
        age(local.pathOf(oldOrphan), HOUR);
        youngOrphan = (await local.putBuffer(Buffer.from('young orphan'))).key;
      });
      scheduleStorageMaintenance(app, 100);
    },
  });
});
afterAll(() => t.close());

describe('storage maintenance at start', () => {
  it('moves the old system-setting files into the storage, keeping their rows valid, and drops the rest of the old store', async () => {
    expect(fs.existsSync(path.join(t.config.dataDir, 'system-files'))).toBe(false);
    const row = await t.database.db
      .selectFrom('system_setting_files')
      .select('storage_key')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).not.toBe(legacyKey);
    const keys = await storage().keys();
    expect(keys).toContain(row.storage_key);
    expect(keys).not.toContain(legacyOrphan);

    const admin = await t.cookieFor('admin@demo.test');
    const signed = (
      await t.api({ method: 'GET', url: `/api/v1/files/${fileId}/signed-url`, cookie: admin })
    ).json() as SignedUrl;
    const res = await t.inject({ method: 'GET', url: signed.url, headers: { cookie: admin } });
    expect([res.statusCode, res.body]).toEqual([200, LEGACY.toString()]);
  });

  it('sweeps old staged leftovers and old unnamed blobs, and leaves young ones and named ones', async () => {
    expect(await storage().stagedNames()).toEqual([]);
    const keys = await storage().keys();
    expect(keys).not.toContain(oldOrphan);
    expect(keys).toContain(youngOrphan);
    // the seed's files are named by rows: a sweep that treats everything as old keeps them all
    const named = keys.filter((k) => k !== youngOrphan);
    for (const key of keys) age(storage().pathOf(key), HOUR);
    // the 100 ms interval of this app may sweep first: what counts is what is left
    const swept = await sweepStorage(t.app);
    expect(swept.staged).toBe(0);
    expect((await storage().keys()).sort()).toEqual(named.sort());
    expect(await sweepStorage(t.app)).toEqual({ staged: 0, orphans: 0 });
  });

  it('moves what it can of the old store and logs the rest, never failing the start-up', async () => {
    const legacyDir = path.join(t.config.dataDir, 'system-files');
    // A "file" that cannot be read (a folder under a key's name), next to a readable one no row names.
    fs.mkdirSync(path.join(legacyDir, randomUUID()), { recursive: true });
    fs.writeFileSync(path.join(legacyDir, randomUUID()), 'nobody names me either');
    try {
      await expect(moveLegacySystemFiles(t.app)).resolves.toBe(0);
      expect(fs.readdirSync(legacyDir)).toHaveLength(1);
    } finally {
      fs.rmSync(legacyDir, { recursive: true, force: true });
    }
  });

  it('sweeps again on its interval', async () => {
    const { key } = await storage().putBuffer(Buffer.from('later orphan'));
    age(storage().pathOf(key), HOUR);
    for (let i = 0; i < 100 && (await storage().keys()).includes(key); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await storage().keys()).not.toContain(key);
  });
});
