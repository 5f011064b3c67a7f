import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  TRANSFER_MAX_FILES,
  TRANSFER_PASSPHRASE_HEADER,
  type SignedUrl,
  type Transfer,
  type TransferList,
  type TransferUser,
} from '@portal/shared/core/files';
import { addCompanyMember } from '../../../db/companies';
import { setUserModuleAccess } from '../../../db/module-access';
import { createTestApp, type TestApp } from '../../../test/app';
import { multipart, type FilePart as Part } from '../../../test/multipart';
import { auditRows, newCompany, newUser } from '../../../test/project-fixtures';
import { sweepExpiredTransfers } from '../../../modules/transfers/access';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
type Person = { id: string; email: string; cookie: string };
/** Sends; receives from `bob` only. */
let alice: Person;
/** Receives. */
let bob: Person;
/** Receives too (sees only their own downloads). */
let carol: Person;
/** Same company, never a recipient. */
let dave: Person;
/** A member of another company. */
let erin: Person;
let globex: Person;
let consultantId: string;
let auditorId: string;
let suspendedId: string;
let revokedId: string;

async function person(options: Parameters<typeof newUser>[1]): Promise<Person> {
  const user = await newUser(t, options);
  return { ...user, cookie: await t.cookieFor(user.email) };
}

beforeAll(async () => {
  t = await createTestApp();
  companyId = await newCompany(t, `Transfers ${randomUUID()}`);
  otherCompanyId = await newCompany(t, `Transfers other ${randomUUID()}`);
  alice = await person({ companyIds: [companyId], firstName: 'Alice' });
  bob = await person({ companyIds: [companyId], firstName: 'Bob' });
  carol = await person({ companyIds: [companyId], firstName: 'Carol' });
  dave = await person({ companyIds: [companyId], firstName: 'Dave' });
  erin = await person({ companyIds: [otherCompanyId], firstName: 'Erin' });
  suspendedId = (await newUser(t, { companyIds: [companyId], status: 'suspended' })).id;
  revokedId = (await newUser(t, { companyIds: [companyId] })).id;
  await t.database.db
    .updateTable('company_memberships')
    .set({ access_revoked_at: new Date().toISOString() })
    .where('user_id', '=', revokedId)
    .execute();
  const byEmail = async (email: string) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  globex = {
    id: await byEmail('client@globex.test'),
    email: 'client@globex.test',
    cookie: await t.cookieFor('client@globex.test'),
  };
  consultantId = await byEmail('consultant@demo.test');
  auditorId = await byEmail('auditor@demo.test');
});
afterAll(() => t.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  Buffer.alloc(64, 1),
]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const send = (cookie: string, fields: [string, string][], files: Part[], company = companyId) =>
  t.api({ method: 'POST', url: `/api/v1/companies/${company}/transfers`, cookie, ...multipart(fields, files) });

async function sendOk(
  fields: [string, string][],
  files: Part[] = [{ filename: 'report.pdf', data: PDF }],
  from = alice,
): Promise<Transfer> {
  const res = await send(from.cookie, fields, files);
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as Transfer;
}

const getTransfer = (id: string, cookie: string) => t.api({ method: 'GET', url: `/api/v1/transfers/${id}`, cookie });
const box = async (cookie: string, which: 'received' | 'sent', company = companyId): Promise<TransferList> => {
  const res = await t.api({ method: 'GET', url: `/api/v1/companies/${company}/transfers?box=${which}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as TransferList;
};
const signedUrl = (fileId: string, cookie: string, passphrase?: string) =>
  t.api({
    method: 'GET',
    url: `/api/v1/files/${fileId}/signed-url`,
    cookie,
    headers: passphrase === undefined ? {} : { [TRANSFER_PASSPHRASE_HEADER]: passphrase },
  });

const downloadsOf = async (transferFileId: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('transfer_downloads')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('transfer_file_id', '=', transferFileId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const storageKeysOf = async (transferId: string) =>
  (
    await t.database.db
      .selectFrom('transfer_files')
      .select('storage_key')
      .where('transfer_id', '=', transferId)
      .execute()
  ).map((r) => r.storage_key);
const blobExists = async (key: string) => {
  const stream = await t.app.storage.open(key);
  stream?.destroy();
  return stream !== null;
};
const count = async (table: 'transfers' | 'transfer_files' | 'transfer_recipients' | 'transfer_downloads') =>
  Number(
    (
      await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
/** Every file under the storage's folder, staged or committed. */
function storedFiles(dir = path.join(t.config.dataDir, 'files')): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('GET /api/v1/companies/:id/transfer-recipients', () => {
  it("lists the company's active members whose access stands and staff who are not auditors, without the caller", async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/transfer-recipients`,
      cookie: alice.cookie,
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as TransferUser[];
    const ids = results.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([bob.id, carol.id, dave.id, consultantId]));
    for (const absent of [alice.id, erin.id, globex.id, suspendedId, revokedId, auditorId])
      expect(ids).not.toContain(absent);
    expect(results.find((u) => u.id === bob.id)).toEqual({
      id: bob.id,
      name: 'Bob Tester',
      email: bob.email,
      staff: false,
    });
    expect(results.find((u) => u.id === consultantId)).toMatchObject({ staff: true });
  });
});

describe('POST /api/v1/companies/:id/transfers and the boxes', () => {
  it('sends files to the recipients: they see it in received, the sender in sent, nobody else at all', async () => {
    const blobs = storedFiles().length;
    const transfer = await sendOk(
      [
        ['recipientIds', bob.id],
        ['recipientIds', carol.id],
        ['message', 'The evidence you asked for'],
        ['expiresInDays', '3'],
      ],
      [
        { filename: 'report.pdf', data: PDF, contentType: 'application/pdf' },
        { filename: '../../diagram.png', data: PNG },
      ],
    );
    expect(transfer).toMatchObject({
      companyId,
      sender: { id: alice.id, email: alice.email, name: 'Alice Tester' },
      message: 'The evidence you asked for',
      hasPassphrase: false,
    });
    expect(transfer.recipients.map((r) => r.id).sort()).toEqual([bob.id, carol.id].sort());
    expect(transfer.files.map((f) => [f.name, f.contentType, f.size, f.sha256, f.downloads])).toEqual([
      ['report.pdf', 'application/pdf', PDF.length, sha256(PDF), []],
      ['diagram.png', 'image/png', PNG.length, sha256(PNG), []],
    ]);
    const days = (Date.parse(transfer.expiresAt) - Date.parse(transfer.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(3, 5);
    for (const key of await storageKeysOf(transfer.id)) expect(await blobExists(key)).toBe(true);
    expect(storedFiles()).toHaveLength(blobs + 2);

    expect((await box(bob.cookie, 'received')).results.map((r) => r.id)).toContain(transfer.id);
    expect((await box(carol.cookie, 'received')).results.map((r) => r.id)).toContain(transfer.id);
    expect((await box(alice.cookie, 'sent')).results.map((r) => r.id)).toContain(transfer.id);
    expect((await box(alice.cookie, 'received')).results.map((r) => r.id)).not.toContain(transfer.id);
    expect((await box(bob.cookie, 'sent')).results.map((r) => r.id)).not.toContain(transfer.id);
    expect((await box(dave.cookie, 'received')).results.map((r) => r.id)).not.toContain(transfer.id);

    for (const viewer of [alice, bob, carol]) {
      const res = await getTransfer(transfer.id, viewer.cookie);
      expect({ status: res.statusCode, id: res.json().id }).toEqual({ status: 200, id: transfer.id });
    }
    for (const stranger of [dave, globex, erin]) {
      const res = await getTransfer(transfer.id, stranger.cookie);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'transfer_not_found' });
      const url = await signedUrl(transfer.files[0].id, stranger.cookie);
      expect(url.statusCode).toBe(404);
      const del = await t.api({ method: 'DELETE', url: `/api/v1/transfers/${transfer.id}`, cookie: stranger.cookie });
      expect({ status: del.statusCode, code: del.json().code }).toEqual({ status: 404, code: 'transfer_not_found' });
    }

    const [row] = await auditRows(t, 'transfer.create', transfer.id);
    expect(row).toMatchObject({
      actor_email: alice.email,
      company_id: companyId,
      target_type: 'transfer',
      after: { hasPassphrase: false, files: [{ name: 'report.pdf' }, { name: 'diagram.png' }] },
    });
  });

  it('lists the newest first, a page at a time', async () => {
    const first = await sendOk([['recipientIds', dave.id]]);
    const second = await sendOk([['recipientIds', dave.id]]);
    const page1 = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/transfers?box=received&pageSize=1`,
      cookie: dave.cookie,
    });
    expect(page1.json()).toMatchObject({ total: 2, page: 1, pageSize: 1, results: [{ id: second.id }] });
    const page2 = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/transfers?box=received&pageSize=1&page=2`,
      cookie: dave.cookie,
    });
    expect(page2.json()).toMatchObject({ total: 2, page: 2, results: [{ id: first.id }] });
    const bad = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/transfers?box=inbox`,
      cookie: dave.cookie,
    });
    expect({ status: bad.statusCode, fields: bad.json().details?.map((d: { field: string }) => d.field) }).toEqual({
      status: 400,
      fields: ['box'],
    });
    await t.database.db.deleteFrom('transfers').where('id', 'in', [first.id, second.id]).execute();
  });

  it('refuses recipients who may not receive in this company (another company, suspended, revoked, the sender), naming recipientIds, and stores nothing', async () => {
    const transfers = await count('transfers');
    const blobs = storedFiles().length;
    for (const refused of [erin.id, globex.id, suspendedId, revokedId, alice.id, auditorId, randomUUID()]) {
      const res = await send(
        alice.cookie,
        [
          ['recipientIds', bob.id],
          ['recipientIds', refused],
        ],
        [{ filename: 'report.pdf', data: PDF }],
      );
      expect({
        status: res.statusCode,
        code: res.json().code,
        fields: res.json().details?.map((d: { field: string }) => d.field),
      }).toEqual({
        status: 400,
        code: 'validation_failed',
        fields: ['recipientIds'],
      });
    }
    expect(await count('transfers')).toBe(transfers);
    expect(storedFiles()).toHaveLength(blobs);
  });

  const one: Part[] = [{ filename: 'report.pdf', data: PDF }];
  it.each<{ label: string; fields: [string, string][]; files: Part[]; field: string }>([
    { label: 'no files', fields: [['recipientIds', 'BOB']], files: [], field: 'files' },
    {
      label: 'too many files',
      fields: [['recipientIds', 'BOB']],
      files: Array.from({ length: TRANSFER_MAX_FILES + 1 }, (_, i) => ({ filename: `f${i}.pdf`, data: PDF })),
      field: 'files',
    },
    { label: 'no recipients', fields: [], files: one, field: 'recipientIds' },
    {
      label: 'an expiry that is not offered',
      fields: [
        ['recipientIds', 'BOB'],
        ['expiresInDays', '5'],
      ],
      files: one,
      field: 'expiresInDays',
    },
    {
      label: 'an expiry that is not a number',
      fields: [
        ['recipientIds', 'BOB'],
        ['expiresInDays', 'soon'],
      ],
      files: one,
      field: 'expiresInDays',
    },
    {
      label: 'a short passphrase',
      fields: [
        ['recipientIds', 'BOB'],
        ['passphrase', 'short'],
      ],
      files: one,
      field: 'passphrase',
    },
  ])('refuses $label with 400 naming $field, storing nothing', async ({ fields, files, field }) => {
    const transfers = await count('transfers');
    const transferFiles = await count('transfer_files');
    const blobs = storedFiles().length;
    const res = await send(
      alice.cookie,
      fields.map(([name, value]) => [name, value === 'BOB' ? bob.id : value]),
      files,
    );
    expect({
      status: res.statusCode,
      code: res.json().code,
      fields: res.json().details?.map((d: { field: string }) => d.field),
    }).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: [field],
    });
    expect(await count('transfers')).toBe(transfers);
    expect(await count('transfer_files')).toBe(transferFiles);
    expect(storedFiles()).toHaveLength(blobs);
  });
});

describe('downloads', () => {
  it('asks a recipient for the passphrase of a protected transfer, refuses a wrong one, signs with the right one; the sender needs none', async () => {
    const transfer = await sendOk([
      ['recipientIds', bob.id],
      ['passphrase', 'correct horse battery'],
    ]);
    expect(transfer.hasPassphrase).toBe(true);
    const row = await t.database.db
      .selectFrom('transfers')
      .select('passphrase_hash')
      .where('id', '=', transfer.id)
      .executeTakeFirstOrThrow();
    expect(row.passphrase_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(await auditRows(t, 'transfer.create', transfer.id))).not.toContain('correct horse battery');

    const fileId = transfer.files[0].id;
    const missing = await signedUrl(fileId, bob.cookie);
    expect({ status: missing.statusCode, code: missing.json().code }).toEqual({
      status: 403,
      code: 'transfer_passphrase_required',
    });
    const wrong = await signedUrl(fileId, bob.cookie, 'incorrect horse');
    expect({ status: wrong.statusCode, code: wrong.json().code }).toEqual({
      status: 403,
      code: 'transfer_passphrase_incorrect',
    });
    const right = await signedUrl(fileId, bob.cookie, 'correct horse battery');
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ name: 'report.pdf' });
    const sender = await signedUrl(fileId, alice.cookie);
    expect(sender.statusCode).toBe(200);
    // Someone who may not see it learns nothing, passphrase or not.
    expect((await signedUrl(fileId, dave.cookie, 'correct horse battery')).statusCode).toBe(404);
  });

  it('records each download through the signed URL: the sender sees all of them, a recipient only their own', async () => {
    const transfer = await sendOk([
      ['recipientIds', bob.id],
      ['recipientIds', carol.id],
    ]);
    const fileId = transfer.files[0].id;
    const signed = await signedUrl(fileId, bob.cookie);
    expect(signed.statusCode).toBe(200);
    const { url } = signed.json() as SignedUrl;
    const download = await t.api({ method: 'GET', url, cookie: bob.cookie });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const asSender = (await getTransfer(transfer.id, alice.cookie)).json() as Transfer;
    expect(asSender.files[0].downloads).toEqual([
      { user: { id: bob.id, name: 'Bob Tester', email: bob.email }, at: expect.any(String) },
    ]);
    expect(
      (await box(alice.cookie, 'sent')).results.find((r) => r.id === transfer.id)?.files[0].downloads,
    ).toHaveLength(1);
    const asBob = (await getTransfer(transfer.id, bob.cookie)).json() as Transfer;
    expect(asBob.files[0].downloads.map((d) => d.user?.id)).toEqual([bob.id]);
    const asCarol = (await getTransfer(transfer.id, carol.cookie)).json() as Transfer;
    expect(asCarol.files[0].downloads).toEqual([]);
  });
});

describe('limits on downloads', () => {
  it('refuses a sixth wrong passphrase within 15 minutes with 429 and Retry-After, and then the right one too', async () => {
    const henry = await person({ companyIds: [companyId], firstName: 'Henry' });
    const transfer = await sendOk([
      ['recipientIds', henry.id],
      ['passphrase', 'correct horse battery'],
    ]);
    const fileId = transfer.files[0].id;
    for (let i = 0; i < 5; i += 1) {
      const wrong = await signedUrl(fileId, henry.cookie, `wrong guess ${i}`);
      expect({ i, status: wrong.statusCode, code: wrong.json().code }).toEqual({
        i,
        status: 403,
        code: 'transfer_passphrase_incorrect',
      });
    }
    const sixth = await signedUrl(fileId, henry.cookie, 'wrong guess 6');
    expect({ status: sixth.statusCode, code: sixth.json().code }).toEqual({ status: 429, code: 'too_many_requests' });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    const right = await signedUrl(fileId, henry.cookie, 'correct horse battery');
    expect({ status: right.statusCode, code: right.json().code }).toEqual({ status: 429, code: 'too_many_requests' });
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // Counted per transfer and recipient: the sender is not held back.
    expect((await signedUrl(fileId, alice.cookie)).statusCode).toBe(200);
  });

  it('answers 404 to a recipient without the projects module: the transfer, signing and a link signed before', async () => {
    const gina = await person({ companyIds: [companyId], firstName: 'Gina' });
    const transfer = await sendOk([['recipientIds', gina.id]]);
    const fileId = transfer.files[0].id;
    const signed = await signedUrl(fileId, gina.cookie);
    expect(signed.statusCode).toBe(200);
    const { url } = signed.json() as SignedUrl;
    await setUserModuleAccess(t.database.db, companyId, gina.id, 'projects', false);
    const get = await getTransfer(transfer.id, gina.cookie);
    expect({ status: get.statusCode, code: get.json().code }).toEqual({ status: 404, code: 'transfer_not_found' });
    expect((await signedUrl(fileId, gina.cookie)).statusCode).toBe(404);
    expect((await t.api({ method: 'GET', url, cookie: gina.cookie })).statusCode).toBe(404);
    expect(await downloadsOf(fileId)).toBe(0);
    await setUserModuleAccess(t.database.db, companyId, gina.id, 'projects', null);
    expect((await getTransfer(transfer.id, gina.cookie)).statusCode).toBe(200);
  });

  it('does not count a HEAD on a signed link as a download', async () => {
    const transfer = await sendOk([['recipientIds', bob.id]]);
    const fileId = transfer.files[0].id;
    const { url } = (await signedUrl(fileId, bob.cookie)).json() as SignedUrl;
    const head = await t.api({ method: 'HEAD', url, cookie: bob.cookie });
    expect(head.statusCode).not.toBe(200);
    expect(await downloadsOf(fileId)).toBe(0);
    expect((await t.api({ method: 'GET', url, cookie: bob.cookie })).statusCode).toBe(200);
    expect(await downloadsOf(fileId)).toBe(1);
  });
});

describe('expiry and withdrawal', () => {
  it('hides an expired transfer at once and the sweep removes its rows and bytes', async () => {
    const transfer = await sendOk([['recipientIds', bob.id]]);
    const keys = await storageKeysOf(transfer.id);
    const fileId = transfer.files[0].id;
    await t.database.db
      .updateTable('transfers')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', transfer.id)
      .execute();

    for (const viewer of [alice, bob]) {
      const res = await getTransfer(transfer.id, viewer.cookie);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'transfer_not_found' });
      expect((await signedUrl(fileId, viewer.cookie)).statusCode).toBe(404);
    }
    expect((await box(bob.cookie, 'received')).results.map((r) => r.id)).not.toContain(transfer.id);
    expect((await box(alice.cookie, 'sent')).results.map((r) => r.id)).not.toContain(transfer.id);

    const swept = await sweepExpiredTransfers({ db: t.database.db, storage: t.app.storage });
    expect(swept).toEqual({ transfers: 1, files: 1 });
    expect(
      await t.database.db.selectFrom('transfers').select('id').where('id', '=', transfer.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.database.db
        .selectFrom('transfer_files')
        .select('id')
        .where('transfer_id', '=', transfer.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.database.db
        .selectFrom('transfer_recipients')
        .select('user_id')
        .where('transfer_id', '=', transfer.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    for (const key of keys) expect(await blobExists(key)).toBe(false);
    expect(await sweepExpiredTransfers({ db: t.database.db, storage: t.app.storage })).toEqual({
      transfers: 0,
      files: 0,
    });
  });

  it('lets only the sender withdraw a transfer, which removes its files', async () => {
    const transfer = await sendOk(
      [['recipientIds', bob.id]],
      [
        { filename: 'report.pdf', data: PDF },
        { filename: 'diagram.png', data: PNG },
      ],
    );
    const keys = await storageKeysOf(transfer.id);
    expect(keys).toHaveLength(2);

    const byRecipient = await t.api({ method: 'DELETE', url: `/api/v1/transfers/${transfer.id}`, cookie: bob.cookie });
    expect({ status: byRecipient.statusCode, code: byRecipient.json().code }).toEqual({
      status: 403,
      code: 'forbidden',
    });
    for (const key of keys) expect(await blobExists(key)).toBe(true);

    const bySender = await t.api({ method: 'DELETE', url: `/api/v1/transfers/${transfer.id}`, cookie: alice.cookie });
    expect(bySender.statusCode).toBe(204);
    for (const key of keys) expect(await blobExists(key)).toBe(false);
    expect((await getTransfer(transfer.id, bob.cookie)).statusCode).toBe(404);
    expect((await getTransfer(transfer.id, alice.cookie)).statusCode).toBe(404);
    expect(
      await t.database.db
        .selectFrom('transfer_files')
        .select('id')
        .where('transfer_id', '=', transfer.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(await auditRows(t, 'transfer.delete', transfer.id)).toHaveLength(1);
  });

  it("answers 404 to a member whose access to the transfer's company was revoked", async () => {
    const frank = await person({ companyIds: [companyId], firstName: 'Frank' });
    const transfer = await sendOk([['recipientIds', frank.id]]);
    expect((await getTransfer(transfer.id, frank.cookie)).statusCode).toBe(200);
    await t.database.db
      .updateTable('company_memberships')
      .set({ access_revoked_at: new Date().toISOString() })
      .where('user_id', '=', frank.id)
      .execute();
    expect((await getTransfer(transfer.id, frank.cookie)).statusCode).toBe(404);
    expect((await signedUrl(transfer.files[0].id, frank.cookie)).statusCode).toBe(404);
  });

  it('keeps a transfer to a client of the company in that company: another company of the recipient does not list it', async () => {
    await addCompanyMember(t.database.db, otherCompanyId, bob.id, 'member');
    const transfer = await sendOk([['recipientIds', bob.id]]);
    expect((await box(bob.cookie, 'received', otherCompanyId)).results.map((r) => r.id)).not.toContain(transfer.id);
    expect((await box(bob.cookie, 'received')).results.map((r) => r.id)).toContain(transfer.id);
  });
});
