/**
 * The check an uploaded .xlsx passes before exceljs reads it (issue 7). exceljs unpacks every part of
 * the archive into memory, so a zip bomb (a few MB that inflate to GBs, possibly behind headers that
 * lie about the sizes) must be refused first, with bounded memory: the archive is read with yauzl,
 * its entry count and declared sizes are checked against the limits of the contract, then every
 * entry is inflated as a stream whose bytes are counted (against its declared size and the limit)
 * and thrown away. While inflating, it can also count the rows of the worksheets exceljs would read,
 * so a workbook of too many rows is refused before exceljs loads it.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { XLSX_MAX_ENTRIES, XLSX_MAX_UNCOMPRESSED_BYTES } from '@portal/shared/core/practices';
import { HttpError } from './http-error';

export const NOT_AN_XLSX = 'The file is not a valid .xlsx workbook.';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const TOO_LARGE = `The .xlsx workbook unpacks to more than ${megabytes(XLSX_MAX_UNCOMPRESSED_BYTES)}: it cannot be read.`;
const TOO_MANY_PARTS = `The .xlsx workbook holds more than ${XLSX_MAX_ENTRIES} parts: it cannot be read.`;
const DAMAGED = 'The .xlsx workbook is damaged: its parts do not match the sizes its directory declares.';
const AMBIGUOUS = 'The .xlsx workbook is damaged: its directory is inconsistent.';
/** Password-protected workbooks and the old .xls format are OLE compound files, not zip archives. */
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENCRYPTED =
  'The file is a password-protected or old-format (.xls) workbook: save it as an Excel Workbook (.xlsx) without a password.';

class LimitExceeded extends Error {}
class SizeMismatch extends Error {}
class TooManyRows extends Error {}

/** The parts exceljs reads as worksheets: its own test of a part's name (xlsx.js, `load`), anywhere in the name. */
const WORKSHEET_PART = /xl\/worksheets\/sheet(\d+)[.]xml/;
/** A row element's start tag, `<row` then a space, `>` or `/` (not `<rowBreaks`). */
const ROW_TAG = Buffer.from('<row');
const isTagEnd = (byte: number) =>
  byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x3e || byte === 0x2f;

/**
 * Counts the row elements of a worksheet part as it streams by. A tag split between two chunks is
 * found by searching each chunk together with the last 4 bytes of the one before (a match needs 5
 * bytes, so none is counted twice). `<row` in a comment or CDATA section counts too: a row can only
 * be over-counted, never missed (exceljs reads rows of the main namespace, never prefixed ones).
 */
function rowCounter(onRow: () => void): (chunk: Buffer) => void {
  let tail: Buffer = Buffer.alloc(0);
  return (chunk) => {
    const text = tail.length ? Buffer.concat([tail, chunk]) : chunk;
    for (
      let at = text.indexOf(ROW_TAG);
      at >= 0 && at + ROW_TAG.length < text.length;
      at = text.indexOf(ROW_TAG, at + 1)
    ) {
      if (isTagEnd(text[at + ROW_TAG.length])) onRow();
    }
    tail = text.subarray(Math.max(0, text.length - ROW_TAG.length));
  };
}

/** Unicode Path extra field: JSZip reads the name from it when present (version, CRC of the name, UTF-8 name). */
const UNICODE_PATH_FIELD = 0x7075;

/**
 * Whether exceljs could read the entry as a worksheet, under any name JSZip may give it: its own, or
 * the one of a Unicode Path field. Decoding does not matter: the test is on ASCII alone.
 */
function isWorksheetPart(entry: yauzl.Entry): boolean {
  const names = [
    entry.fileNameRaw,
    ...entry.extraFields.filter((f) => f.id === UNICODE_PATH_FIELD).map((f) => f.data.subarray(5)),
  ];
  return names.some((name) => WORKSHEET_PART.test(name.toString('latin1')));
}

/** The worksheets' row limit of checkXlsxArchive: at most `max` row elements across them, else `refuse()`. */
export interface SheetRowLimit {
  max: number;
  refuse: () => HttpError;
}

const INFLATE_CHUNK = 1024 * 1024;

/**
 * Refuses (with the error `refuse` makes of the message: each kind of file names its own, such as a
 * task tracker's 400 `malformed_task_tracker`) an .xlsx that is
 * not a zip archive, holds more than XLSX_MAX_ENTRIES entries, would inflate past
 * XLSX_MAX_UNCOMPRESSED_BYTES (declared or actual), has entries whose data does not match their
 * declared sizes, or whose directory another zip reader could read differently. With `rows`, also
 * refuses (`rows.refuse()`) as soon as the worksheets exceljs would read hold more than `rows.max` rows
 * in all (blank ones included: exceljs reads them all before any can be skipped). Resolves when
 * exceljs may load the bytes.
 */
export async function checkXlsxArchive(
  bytes: Buffer,
  refuse: (message: string) => HttpError,
  rows?: SheetRowLimit,
): Promise<void> {
  if (bytes.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)) throw refuse(ENCRYPTED);
  let zip: yauzl.ZipFile;
  try {
    // Names are not needed (nor validated: exceljs tolerates odd ones); sizes are checked while inflating.
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false, decodeStrings: false });
  } catch {
    throw refuse(NOT_AN_XLSX);
  }
  try {
    if (zip.entryCount > XLSX_MAX_ENTRIES) throw refuse(TOO_MANY_PARTS);
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        entries.push(entry);
        declared += entry.uncompressedSize;
        if (declared > XLSX_MAX_UNCOMPRESSED_BYTES) throw refuse(TOO_LARGE);
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw refuse(NOT_AN_XLSX);
    }
    if (!readsAlike(bytes, entries)) throw refuse(AMBIGUOUS);

    let inflated = 0;
    let sheetRows = 0;
    for (const entry of entries) {
      // JSZip reads only stored and deflated parts, and no encrypted ones.
      if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8))
        throw refuse(NOT_AN_XLSX);
      let source: Readable;
      try {
        source = await zip.openReadStreamPromise(entry, { decodeFileData: false });
      } catch {
        // A local header that is missing or points outside the file.
        throw refuse(NOT_AN_XLSX);
      }
      // Inflated here rather than by yauzl, in large chunks: a 100 MB part takes a fraction of a second.
      let size = 0;
      const countRows =
        rows && isWorksheetPart(entry)
          ? rowCounter(() => {
              sheetRows += 1;
              if (sheetRows > rows.max) throw new TooManyRows();
            })
          : null;
      const counted = async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) {
          size += chunk.length;
          inflated += chunk.length;
          // A second bound: the declared sizes, checked above, already add up to at most the limit.
          if (inflated > XLSX_MAX_UNCOMPRESSED_BYTES) throw new LimitExceeded();
          if (size > entry.uncompressedSize) throw new SizeMismatch();
          countRows?.(chunk);
        }
      };
      try {
        if (entry.compressionMethod === 8)
          await pipeline(source, zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK }), counted);
        else await pipeline(source, counted);
      } catch (error) {
        if (error instanceof LimitExceeded) throw refuse(TOO_LARGE);
        // Told by the count, not by the error: stopping the pipeline midway may reject with an AbortError instead.
        if (rows && sheetRows > rows.max) throw rows.refuse();
        // More or less data than declared, or a broken deflate stream.
        throw refuse(DAMAGED);
      }
      if (size !== entry.uncompressedSize) throw refuse(DAMAGED);
    }
  } finally {
    zip.close();
  }
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const signature = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return b;
};
const readUInt64 = (bytes: Buffer, at: number) => Number(bytes.readBigUInt64LE(at));

/**
 * exceljs unpacks with JSZip, which finds the central directory its own way: from the last end record
 * in the file, reading records for as long as their signature follows, and shifting every offset when
 * the directory's declared size does not end at the end record. yauzl reads exactly the declared count
 * from the declared offset. A crafted archive could show yauzl harmless entries and JSZip a bomb; this
 * accepts only archives where both find the same records: the directory yauzl walked is the declared
 * one and ends exactly where the end records begin.
 */
function readsAlike(bytes: Buffer, entries: yauzl.Entry[]): boolean {
  try {
    const eocd = bytes.lastIndexOf(signature(EOCD));
    if (eocd < 0 || eocd + 22 + bytes.readUInt16LE(eocd + 20) !== bytes.length) return false;
    const walked = entries.reduce(
      (sum, e) => sum + 46 + e.fileNameLength + e.extraFieldLength + e.fileCommentLength,
      0,
    );
    // JSZip's test for the zip64 form; yauzl's is a locator just before the end record.
    const jszip64 =
      [4, 6, 8, 10].some((at) => bytes.readUInt16LE(eocd + at) === 0xffff) ||
      [12, 16].some((at) => bytes.readUInt32LE(eocd + at) === 0xffffffff);
    const yauzl64 = eocd >= 20 && bytes.readUInt32LE(eocd - 20) === ZIP64_LOCATOR;
    if (jszip64 !== yauzl64) return false;
    if (!yauzl64) {
      const size = bytes.readUInt32LE(eocd + 12);
      const offset = bytes.readUInt32LE(eocd + 16);
      return size === walked && offset + size === eocd;
    }
    if (bytes.lastIndexOf(signature(ZIP64_LOCATOR)) !== eocd - 20) return false;
    const record = readUInt64(bytes, eocd - 20 + 8);
    if (bytes.readUInt32LE(record) !== ZIP64_EOCD) return false;
    const recordSize = readUInt64(bytes, record + 4);
    const size = readUInt64(bytes, record + 40);
    const offset = readUInt64(bytes, record + 48);
    return size === walked && offset + size === record && record + 12 + recordSize + 20 === eocd;
  } catch {
    // A field outside the file.
    return false;
  }
}
