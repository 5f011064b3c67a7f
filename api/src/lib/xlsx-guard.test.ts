import zlib from 'node:zlib';
import { Workbook } from 'exceljs';
import { XLSX_MAX_ENTRIES, XLSX_MAX_UNCOMPRESSED_BYTES } from '@portal/shared/core/practices';
import { measured, trackerXlsx, zipArchive, zipBombXlsx } from '../test/task-tracker-files';
import { HttpError } from './http-error';
import { checkXlsxArchive } from './xlsx-guard';

const MB = 1024 * 1024;

/** The refusal a kind of file makes of the check's message (a task tracker's here). */
const refuse = (message: string) => new HttpError(400, 'malformed_task_tracker', message);

/** The error the check throws (it must throw). */
async function refusal(bytes: Buffer): Promise<HttpError> {
  const error = await checkXlsxArchive(bytes, refuse).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

/** The end of central directory record of an archive without comment. */
const endRecord = (zip: Buffer) => zip.length - 22;

/** The archive with zip64 end records (as writers of huge archives add) before its end record, which then defers to them. */
function asZip64(zip: Buffer, { markPlainRecord = true } = {}): Buffer {
  const end = endRecord(zip);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(zip.readUInt16LE(end + 8)), 24);
  record.writeBigUInt64LE(BigInt(zip.readUInt16LE(end + 10)), 32);
  record.writeBigUInt64LE(BigInt(zip.readUInt32LE(end + 12)), 40);
  record.writeBigUInt64LE(BigInt(zip.readUInt32LE(end + 16)), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(end), 8);
  locator.writeUInt32LE(1, 16);
  const plain = Buffer.from(zip.subarray(end));
  if (markPlainRecord) {
    plain.writeUInt16LE(0xffff, 8);
    plain.writeUInt16LE(0xffff, 10);
    plain.writeUInt32LE(0xffffffff, 12);
    plain.writeUInt32LE(0xffffffff, 16);
  }
  return Buffer.concat([zip.subarray(0, end), record, locator, plain]);
}

describe('checkXlsxArchive', () => {
  it('accepts a workbook', async () => {
    await expect(checkXlsxArchive(await trackerXlsx([{ 'Task Title': 'One' }]), refuse)).resolves.toBeUndefined();
  });

  it.each([
    ['text', Buffer.from('Task Title\nOne\n')],
    ['a local file header alone', Buffer.from('PK\u0003\u0004 not really a zip')],
  ])('refuses %s as not a workbook', async (_label, bytes) => {
    expect(await refusal(bytes)).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: 'The file is not a valid .xlsx workbook.',
    });
  });

  it('refuses a workbook cut short', async () => {
    const workbook = await trackerXlsx([{ 'Task Title': 'One' }]);
    expect(await refusal(workbook.subarray(0, workbook.length - 30))).toMatchObject({
      code: 'malformed_task_tracker',
      message: 'The file is not a valid .xlsx workbook.',
    });
  });

  it('tells a password-protected or .xls workbook apart', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect((await refusal(ole)).message).toMatch(/password-protected or old-format \(\.xls\) workbook/);
  });

  it('refuses an archive of more than XLSX_MAX_ENTRIES parts, naming the limit', async () => {
    const entries = Array.from({ length: XLSX_MAX_ENTRIES + 1 }, (_, i) => ({
      name: `xl/part${i}.xml`,
      data: Buffer.from('x'),
      deflated: false,
      uncompressedSize: 1,
    }));
    const error = await refusal(zipArchive(entries));
    expect(error).toMatchObject({ code: 'malformed_task_tracker' });
    expect(error.message).toContain(`more than ${XLSX_MAX_ENTRIES} parts`);
    // At the limit, the count alone is no reason to refuse.
    await expect(checkXlsxArchive(zipArchive(entries.slice(1)), refuse)).resolves.toBeUndefined();
  });

  describe('zip bombs', () => {
    // ~1 MB that inflates to BOMB_MEGABYTES MB of zeros.
    it('refuses one whose headers declare its size, before inflating anything', async () => {
      const bomb = zipBombXlsx();
      expect(bomb.length).toBeLessThan(2 * MB);
      let error: unknown;
      const cost = await measured(() => checkXlsxArchive(bomb, refuse).catch((e: unknown) => void (error = e)));
      expect(error).toMatchObject({
        statusCode: 400,
        code: 'malformed_task_tracker',
        message: 'The .xlsx workbook unpacks to more than 30 MB: it cannot be read.',
      });
      expect(cost.ms).toBeLessThan(2000);
      expect(cost.rss).toBeLessThan(64 * MB);
    });

    it.each([
      ['a tiny size', 1000],
      ['a size just under the limit', XLSX_MAX_UNCOMPRESSED_BYTES - MB],
    ])('refuses one whose headers lie (%s), with bounded memory and quickly', async (_label, declared) => {
      const bomb = zipBombXlsx(declared);
      let error: unknown;
      const cost = await measured(() => checkXlsxArchive(bomb, refuse).catch((e: unknown) => void (error = e)));
      expect(error).toMatchObject({ statusCode: 400, code: 'malformed_task_tracker' });
      expect((error as Error).message).toMatch(/damaged: its parts do not match the sizes its directory declares/);
      // Far below what the part inflates to (BOMB_MEGABYTES MB, see test/task-tracker-files.ts): nothing but a chunk is ever held.
      expect(cost.rss).toBeLessThan(64 * MB);
      expect(cost.heap).toBeLessThan(64 * MB);
      expect(cost.buffers).toBeLessThan(64 * MB);
      expect(cost.ms).toBeLessThan(2000);
    });

    it('refuses parts that together declare more than the limit', async () => {
      const part = (i: number) => ({
        name: `xl/part${i}.xml`,
        data: zlib.deflateRawSync('x'),
        deflated: true,
        uncompressedSize: 10 * MB,
      });
      expect((await refusal(zipArchive([0, 1, 2, 3].map(part)))).message).toBe(
        'The .xlsx workbook unpacks to more than 30 MB: it cannot be read.',
      );
    });

    it('refuses a part that inflates to less than it declares', async () => {
      const zip = zipArchive([
        { name: 'xl/workbook.xml', data: zlib.deflateRawSync('<workbook/>'), deflated: true, uncompressedSize: 5000 },
      ]);
      expect((await refusal(zip)).message).toBe(
        'The .xlsx workbook is damaged: its parts do not match the sizes its directory declares.',
      );
    });

    it('refuses a part whose data is not a deflate stream', async () => {
      const zip = zipArchive([
        { name: 'xl/workbook.xml', data: Buffer.from('not deflated at all'), deflated: true, uncompressedSize: 19 },
      ]);
      expect((await refusal(zip)).code).toBe('malformed_task_tracker');
    });
  });

  describe('archives another zip reader would read differently', () => {
    // exceljs unpacks with JSZip, which keeps reading directory records past the declared count, and
    // moves every offset when the declared directory size does not end at the end record.
    it('refuses a directory holding more records than the end record counts', async () => {
      const zip = await trackerXlsx([{ 'Task Title': 'One' }]);
      const end = endRecord(zip);
      zip.writeUInt16LE(zip.readUInt16LE(end + 8) - 1, end + 8);
      zip.writeUInt16LE(zip.readUInt16LE(end + 10) - 1, end + 10);
      expect((await refusal(zip)).message).toBe('The .xlsx workbook is damaged: its directory is inconsistent.');
    });

    it('refuses a directory whose declared size is not its real size', async () => {
      const zip = await trackerXlsx([{ 'Task Title': 'One' }]);
      const end = endRecord(zip);
      zip.writeUInt32LE(zip.readUInt32LE(end + 12) - 46, end + 12);
      expect((await refusal(zip)).message).toBe('The .xlsx workbook is damaged: its directory is inconsistent.');
    });

    it('accepts the zip64 form of the end records when both readers take it alike, refuses it otherwise', async () => {
      const zip = await trackerXlsx([{ 'Task Title': 'One' }]);
      await expect(checkXlsxArchive(asZip64(zip), refuse)).resolves.toBeUndefined();
      const workbook = new Workbook();
      await workbook.xlsx.load(asZip64(zip) as unknown as ArrayBuffer);
      expect(workbook.worksheets[0].getCell('C2').value).toBe('One');
      // yauzl would take the zip64 record, JSZip the plain one.
      expect((await refusal(asZip64(zip, { markPlainRecord: false }))).message).toBe(
        'The .xlsx workbook is damaged: its directory is inconsistent.',
      );
    });

    it('refuses bytes after the end record', async () => {
      const zip = await trackerXlsx([{ 'Task Title': 'One' }]);
      expect((await refusal(Buffer.concat([zip, Buffer.from('trailing')]))).code).toBe('malformed_task_tracker');
    });
  });
  describe('the rows of the worksheets (a row limit)', () => {
    const limit = (max: number) => ({
      max,
      refuse: () => new HttpError(400, 'malformed_task_tracker', `more than ${max} rows`),
    });
    const sheet = (rows: string) =>
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
      );
    const rows = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>x</t></is></c></row>`,
      ).join('');
    const part = (name: string, data: Buffer, extra?: Buffer) => ({
      name,
      data: zlib.deflateRawSync(data),
      deflated: true,
      uncompressedSize: data.length,
      extra,
    });
    const check = (zip: Buffer, max: number) => checkXlsxArchive(zip, refuse, limit(max));

    it('counts the rows of every part exceljs reads as a worksheet, and refuses past the limit', async () => {
      const zip = zipArchive([
        part('xl/worksheets/sheet1.xml', sheet(rows(3))),
        // stored, not deflated
        {
          name: 'xl/worksheets/sheet2.xml',
          data: sheet(rows(2)),
          deflated: false,
          uncompressedSize: sheet(rows(2)).length,
        },
        // not worksheets: their rows do not count
        part('xl/sharedStrings.xml', sheet(rows(50))),
        part('xl/worksheets/_rels/sheet1.xml.rels', sheet(rows(50))),
      ]);
      await expect(check(zip, 5)).resolves.toBeUndefined();
      await expect(check(zip, 4)).rejects.toMatchObject({ statusCode: 400, message: 'more than 4 rows' });
    });

    it('counts row elements only, empty ones included', async () => {
      const zip = zipArchive([
        part(
          'xl/worksheets/sheet1.xml',
          sheet('<row r="1"/><row>\n</row><row\tr="3"></row><rowBreaks count="0"/><x:row r="4"/>'),
        ),
      ]);
      await expect(check(zip, 3)).resolves.toBeUndefined();
      await expect(check(zip, 2)).rejects.toMatchObject({ message: 'more than 2 rows' });
    });

    it('counts a row tag split between two inflated chunks once', async () => {
      // Parts inflate in 1 MB chunks: one tag is split after "<r", the other just before its space.
      const start = '<worksheet><sheetData>';
      const first = ' '.repeat(MB - 2 - start.length);
      const second = ' '.repeat(2 * MB - 4 - (MB - 2 + '<row r="1"/>'.length));
      const xml = Buffer.from(`${start}${first}<row r="1"/>${second}<row r="2"/></sheetData></worksheet>`);
      expect(xml.indexOf('<row r="1"')).toBe(MB - 2);
      expect(xml.indexOf('<row r="2"')).toBe(2 * MB - 4);
      const zip = zipArchive([part('xl/worksheets/sheet1.xml', xml)]);
      await expect(check(zip, 2)).resolves.toBeUndefined();
      await expect(check(zip, 1)).rejects.toMatchObject({ message: 'more than 1 rows' });
    });

    it('counts a part that JSZip would name a worksheet by its Unicode Path field', async () => {
      const upath = Buffer.from('xl/worksheets/sheet1.xml', 'utf8');
      const field = Buffer.alloc(4 + 5 + upath.length);
      field.writeUInt16LE(0x7075, 0);
      field.writeUInt16LE(5 + upath.length, 2);
      field.writeUInt8(1, 4);
      upath.copy(field, 9);
      const zip = zipArchive([part('xl/data.xml', sheet(rows(2)), field)]);
      await expect(check(zip, 2)).resolves.toBeUndefined();
      await expect(check(zip, 1)).rejects.toMatchObject({ message: 'more than 1 rows' });
    });

    it('refuses a workbook of many rows before inflating the rest of it', async () => {
      const many = sheet(rows(200_000));
      const zip = zipArchive([part('xl/worksheets/sheet1.xml', many)]);
      expect(many.length).toBeLessThan(XLSX_MAX_UNCOMPRESSED_BYTES);
      const cost = await measured(() => check(zip, 1000).catch(() => undefined));
      await expect(check(zip, 1000)).rejects.toMatchObject({ message: 'more than 1000 rows' });
      expect(cost.ms).toBeLessThan(2000);
    });
  });
});
