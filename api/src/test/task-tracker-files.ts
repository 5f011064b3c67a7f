/**
 * Task tracker files for tests (issue 7): a .csv or .xlsx built from rows keyed by column heading, and
 * hostile .xlsx archives (zip bombs, too many parts). Independent of modules/task-trackers/task-tracker-file.ts, so the
 * reader is tested against files it did not write.
 */
import zlib from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { Workbook, type CellValue } from 'exceljs';
import { TASK_TRACKER_COLUMNS, type TaskTrackerColumn } from '@portal/shared/core/practices';

/** A row of a test file: cells by heading (any heading, so tests can use unknown or odd ones). */
export type FixtureRow = Partial<Record<TaskTrackerColumn, string>> & Record<string, string | undefined>;

/** A .csv: the header `columns`, then each row's cells by heading (missing: empty). Quoted by csv-stringify. */
export function trackerCsv(
  rows: FixtureRow[],
  columns: readonly string[] = TASK_TRACKER_COLUMNS,
  options: { bom?: boolean } = {},
): Buffer {
  return Buffer.from(
    stringify([[...columns], ...rows.map((r) => columns.map((c) => r[c] ?? ''))], { bom: options.bom ?? false }),
    'utf8',
  );
}

/**
 * An .xlsx whose first sheet holds the header `columns`, then each row. Cells take any exceljs value
 * (a `{ formula }`, rich text, a date, a number…); a string stays a string, even "=SUM(A1)".
 */
export async function trackerXlsx(
  rows: Partial<Record<string, CellValue>>[],
  columns: readonly string[] = TASK_TRACKER_COLUMNS,
): Promise<Buffer> {
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet('Tasks');
  sheet.addRow([...columns]);
  for (const r of rows) sheet.addRow(columns.map((c) => r[c] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** XML text: the five characters XML escapes. */
const xmlText = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/**
 * An .xlsx of the parts a workbook needs (content types, relationships, the workbook, one sheet),
 * each row's cells (columns A to Z) as inline strings (an empty one too: the cell is there, empty). Written
 * as XML without exceljs, so a workbook of 100,000 rows takes a fraction of a second to build.
 */
export function inlineXlsx(rows: readonly (readonly string[])[]): Buffer {
  const cells = (row: readonly string[], n: number) =>
    row
      .map(
        (text, i) =>
          `<c r="${String.fromCharCode(65 + i)}${n}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`,
      )
      .join('');
  const sheetData = rows.map((row, i) => `<row r="${i + 1}">${cells(row, i + 1)}</row>`).join('');
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const relationships = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const officeDocument = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const part = (name: string, text: string) => {
    const data = Buffer.from(text, 'utf8');
    return { name, data: zlib.deflateRawSync(data), deflated: true, uncompressedSize: data.length };
  };
  return zipArchive([
    part(
      '[Content_Types].xml',
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    part(
      '_rels/.rels',
      `${xml}<Relationships xmlns="${relationships}"><Relationship Id="rId1" Type="${officeDocument}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    part(
      'xl/workbook.xml',
      `${xml}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${officeDocument}"><sheets><sheet name="Tasks" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `${xml}<Relationships xmlns="${relationships}"><Relationship Id="rId1" Type="${officeDocument}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    part(
      'xl/worksheets/sheet1.xml',
      `${xml}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`,
    ),
  ]);
}

/** `count` rows T-1 … T-count, each with a title and a description (a large file). */
export function manyRows(count: number): FixtureRow[] {
  return Array.from({ length: count }, (_, i) => ({
    'Task ID': `T-${i + 1}`,
    'Task Title': `Task ${i + 1}`,
    'Task Description': `What task ${i + 1} asks for.`,
  }));
}

interface ZipEntry {
  name: string;
  /** The entry's data as stored (deflated when `deflated`). */
  data: Buffer;
  deflated: boolean;
  /** What the headers claim the data inflates to (a zip bomb may lie). */
  uncompressedSize: number;
  /** Extra fields, as written in both headers (e.g. a Unicode Path field). */
  extra?: Buffer;
}

/** A zip archive (no zip64, no CRC: the guard under test never needs them). */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const extra = e.extra ?? Buffer.alloc(0);
    const method = e.deflated ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.uncompressedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, extra, e.data);
    centrals.push(central, name, extra);
    offset += local.length + name.length + extra.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * `megabytes` MB of zeros as raw deflate (about 1 KB per MB), built without ever holding them: one
 * fully flushed segment per MB (each starts afresh, so segments concatenate), then a final empty block.
 */
export function deflatedZeros(megabytes: number): Buffer {
  const segment = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  return Buffer.concat([...Array.from({ length: megabytes }, () => segment), zlib.deflateRawSync(Buffer.alloc(0))]);
}

export const BOMB_MEGABYTES = 1024;

/**
 * An .xlsx-named zip bomb: a worksheet part of BOMB_MEGABYTES MB of zeros deflated to about 1 MB.
 * `declaredBytes` is what its headers claim it inflates to: the truth by default, or a lie.
 */
export function zipBombXlsx(declaredBytes = BOMB_MEGABYTES * 1024 * 1024): Buffer {
  return zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), deflated: false, uncompressedSize: 8 },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: deflatedZeros(BOMB_MEGABYTES),
      deflated: true,
      uncompressedSize: Math.min(declaredBytes, 0xffffffff),
    },
  ]);
}

/** Runs `work`, sampling the process memory meanwhile: how long it took and how far memory rose above where it started. */
export async function measured(work: () => Promise<unknown>) {
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heap: before.heapUsed, buffers: before.arrayBuffers };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed);
    peak.buffers = Math.max(peak.buffers, now.arrayBuffers);
  };
  const timer = setInterval(sample, 1);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
    sample();
  }
  return {
    ms: performance.now() - started,
    rss: peak.rss - before.rss,
    heap: peak.heap - before.heapUsed,
    buffers: peak.buffers - before.arrayBuffers,
  };
}
