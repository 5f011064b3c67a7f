/**
 * Report files read back for tests (issue 9): the CSV and the .xlsx parsed by the libraries users'
 * tools would use (csv-parse, exceljs), and the text of each page of a PDF (its compressed content
 * streams inflated with zlib, the text of its TJ operators decoded from Windows-1252).
 */
import { inflateSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { Workbook, type CellValue } from 'exceljs';
import { formulaSafeCell } from '@portal/shared/core/practices';
import { reportHeadings, type ReportKind, type ReportMeta, type ReportTable } from '@portal/shared/core/reports';

export interface ReadTable {
  title: string;
  columns: string[];
  rows: (string | number | null)[][];
}

export interface ReadReportFile {
  headings: string[][];
  tables: ReadTable[];
}

/** The heading block as both files write it: formula-safe. */
export function expectedHeadings(kind: ReportKind, meta: ReportMeta): string[][] {
  return reportHeadings(kind, meta).map((row) => row.map(formulaSafeCell));
}

/**
 * The tables as the CSV writes them: every cell as text, text cells formula-safe. The .xlsx form
 * (`xlsx: true`): numbers as numbers, empty texts as empty cells.
 */
export function expectedTables(tables: ReportTable[], options: { xlsx?: boolean } = {}): ReadTable[] {
  const cell = (c: string | number) => {
    if (typeof c === 'number') return options.xlsx ? c : String(c);
    if (options.xlsx && c === '') return null;
    return formulaSafeCell(c);
  };
  return tables.map((t) => ({
    title: options.xlsx ? t.title.slice(0, 31) : formulaSafeCell(t.title),
    columns: t.columns.map((c) => c.title),
    rows: t.rows.map((r) => r.map(cell)),
  }));
}

/** The heading block (up to the first empty row), then blocks of title, column titles and rows, each ended by an empty row. */
export function readReportCsv(bytes: Buffer): ReadReportFile {
  const records = parse(bytes, { bom: true, relax_column_count: true }) as string[][];
  const isEmpty = (r: string[]) => r.every((c) => c === '');
  const end = records.findIndex(isEmpty);
  const headings = records.slice(0, end);
  const tables: ReadTable[] = [];
  let at = end + 1;
  while (at < records.length) {
    const [[title], columns] = records.slice(at, at + 2);
    let stop = at + 2;
    while (stop < records.length && !isEmpty(records[stop])) stop += 1;
    tables.push({ title, columns, rows: records.slice(at + 2, stop) });
    at = stop + 1;
  }
  return { headings, tables };
}

/** The sheet "Report" as label/value rows, then each other sheet as its name, its first row and the rows under it. */
export async function readReportXlsx(bytes: Buffer): Promise<ReadReportFile & { sheetNames: string[] }> {
  const workbook = new Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const values = (sheet: (typeof workbook.worksheets)[number]) => {
    const rows: (string | number | null)[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const cells: (string | number | null)[] = [];
      for (let column = 1; column <= sheet.columnCount; column += 1) cells.push(plain(row.getCell(column).value));
      rows.push(cells);
    });
    return rows;
  };
  const [cover, ...sheets] = workbook.worksheets;
  return {
    sheetNames: workbook.worksheets.map((s) => s.name),
    headings: values(cover) as string[][],
    tables: sheets.map((sheet) => {
      const [columns, ...rows] = values(sheet);
      return { title: sheet.name, columns: columns as string[], rows };
    }),
  };
}

function plain(value: CellValue): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new Error(`unexpected cell ${JSON.stringify(value)}`);
}

/** Windows-1252's characters at 0x80–0x9F (Node's TextDecoder reads them as Latin-1 control characters). */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

const windows1252 = (bytes: Buffer) =>
  Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80] : String.fromCharCode(b))).join('');

/** The text of each page, a line per text run; pages in file order (pdfkit writes them in order). */
export function pdfPageTexts(bytes: Buffer): string[] {
  const raw = bytes.toString('latin1');
  const pages: string[] = [];
  const streams = /<<([^>]*)>>\s*stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const length = Number(/\/Length (\d+)/.exec(match[1])?.[1]);
    const start = match.index + match[0].length;
    const data = bytes.subarray(start, start + length);
    const content = (match[1].includes('/FlateDecode') ? inflateSync(data) : data).toString('latin1');
    const runs = [...content.matchAll(/\[([^\]]*)\]\s*TJ/g)].map((run) =>
      [...run[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => windows1252(Buffer.from(hex[1], 'hex'))).join(''),
    );
    if (runs.length) pages.push(runs.join('\n'));
  }
  return pages;
}

/** How many pages the PDF says it has. */
export function pdfPageCount(bytes: Buffer): number {
  return Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(bytes.toString('latin1'))?.[1] ?? 0);
}
