/**
 * A report as a spreadsheet (issue 9; contract shared/src/core/reports): CSV and XLSX of one report,
 * written from reportTables() so they show the page's numbers (the PDF: report-pdf.ts).
 *
 * Text cells are formula-safe (a leading apostrophe, as the other exports write them); numbers stay
 * numbers, percentages as 0–100 under a heading that says %.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { Workbook } from 'exceljs';
import { formulaSafeCell } from '@portal/shared/core/practices';
import { reportHeadings, reportTables, type Report, type ReportTable } from '@portal/shared/core/reports';

type Cell = ReportTable['rows'][number][number];

const safeCell = (cell: Cell): Cell => (typeof cell === 'string' ? formulaSafeCell(cell) : cell);

/** One report as a CSV or an .xlsx (see the contract for the layout). */
export async function reportSpreadsheet(report: Report, format: 'csv' | 'xlsx'): Promise<Buffer> {
  return format === 'csv' ? reportCsv(report) : reportXlsx(report);
}

/** The heading block and an empty row, then per table: its title, its column titles, its rows, an empty row. */
function reportCsv(report: Report): Buffer {
  const rows: Cell[][] = [...reportHeadings(report.kind, report.meta), []];
  for (const table of reportTables(report))
    rows.push(
      [table.title],
      table.columns.map((c) => c.title),
      ...table.rows,
      [],
    );
  return Buffer.from(
    stringifyCsv(
      rows.map((row) => row.map(safeCell)),
      { bom: true, record_delimiter: 'windows' },
    ),
    'utf8',
  );
}

/** A sheet "Report" with the heading block, then a sheet per table: its column titles (bold, frozen, filtered) over its rows. */
async function reportXlsx(report: Report): Promise<Buffer> {
  const workbook = new Workbook();
  // The report's own time rather than the clock's, so one report makes one file.
  workbook.created = workbook.modified = new Date(report.meta.generatedAt);
  const cover = workbook.addWorksheet('Report');
  cover.columns = [{ width: 14 }, { width: 50 }];
  for (const [label, value] of reportHeadings(report.kind, report.meta))
    cover.addRow([label, formulaSafeCell(value)]).getCell(1).font = { bold: true };
  for (const table of reportTables(report)) {
    // The titles are the contract's own, unique in a report and free of the characters sheet names refuse.
    const sheet = workbook.addWorksheet(table.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.columns.map((column, index) => ({
      header: column.title,
      width: sheetColumnWidth(table, index),
    }));
    sheet.getRow(1).font = { bold: true };
    // An empty text stays an empty cell (the requests summary's rates when nothing was reviewed).
    for (const row of table.rows) sheet.addRow(row.map((cell) => (cell === '' ? null : safeCell(cell))));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: table.columns.length } };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Wide enough for the title and the longest cell, within reason. */
function sheetColumnWidth(table: ReportTable, index: number): number {
  const longest = Math.max(table.columns[index].title.length, ...table.rows.map((row) => String(row[index]).length));
  return Math.min(60, Math.max(10, longest + 2));
}
