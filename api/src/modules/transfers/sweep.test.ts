import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
let transferId: string;
let storageKey: string;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0x20)]);

beforeAll(async () => {
  t = await createTestApp({
    // An expired transfer already there when the app starts (written before the transfers' own start-up hook runs).
    extend: (app) =>
      app.addHook('onReady', async () => {
        const company = await app.db
          .selectFrom('companies')
          .select('id')
          .where('name', '=', 'Acme Corp')
          .executeTakeFirstOrThrow();
        const sender = await app.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'lead@acme.test')
          .executeTakeFirstOrThrow();
        const recipient = await app.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'member@acme.test')
          .executeTakeFirstOrThrow();
        const blob = await app.storage.putBuffer(PDF);
        storageKey = blob.key;
        transferId = randomUUID();
        const past = new Date(Date.now() - 60_000).toISOString();
        await app.db
          .insertInto('transfers')
          .values({
            id: transferId,
            company_id: company.id,
            sender_id: sender.id,
            message: null,
            passphrase_hash: null,
            expires_at: past,
            created_at: past,
          })
          .execute();
        await app.db
          .insertInto('transfer_recipients')
          .values({ transfer_id: transferId, user_id: recipient.id, company_id: company.id, created_at: past })
          .execute();
        await app.db
          .insertInto('transfer_files')
          .values({
            id: randomUUID(),
            transfer_id: transferId,
            name: 'old.pdf',
            content_type: 'application/pdf',
            size: blob.size,
            sha256: blob.sha256,
            storage_key: blob.key,
            created_at: past,
          })
          .execute();
      }),
  });
});
afterAll(() => t.close());

describe('the sweep of expired transfers', () => {
  it('runs when the app starts: the expired transfer, its rows and its bytes are gone', async () => {
    expect({ transferId, storageKey }).toEqual({ transferId: expect.any(String), storageKey: expect.any(String) });
    expect(
      await t.database.db.selectFrom('transfers').select('id').where('id', '=', transferId).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.database.db
        .selectFrom('transfer_recipients')
        .select('user_id')
        .where('transfer_id', '=', transferId)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.database.db
        .selectFrom('transfer_files')
        .select('id')
        .where('storage_key', '=', storageKey)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(await t.app.storage.open(storageKey)).toBeNull();
  });
});
