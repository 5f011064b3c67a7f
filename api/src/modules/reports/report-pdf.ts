/**
 * A report as a PDF (issue 9; contract shared/src/core/reports): the whole report, written from
 * reportTables() so it shows the page's numbers (one report as a spreadsheet: report-spreadsheet.ts).
 * The PDF uses the built-in Helvetica, which draws only Windows-1252 text: other characters are
 * replaced (pdfText, pdf-text.ts).
 */
import PDFDocument from 'pdfkit';
import {
  REPORT_LABELS,
  REPORT_PDF_MAX_ROWS,
  reportHeadings,
  reportTables,
  type Report,
  type ReportColumn,
  type ReportMeta,
  type ReportTable,
} from '@portal/shared/core/reports';
import { workSlots } from '../../lib/slots';
import { pdfText } from './pdf-text';

type Cell = ReportTable['rows'][number][number];

type Doc = PDFKit.PDFDocument;

const MARGINS = { top: 50, bottom: 60, left: 50, right: 50 };
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1f1f1f';
const MUTED = '#595959';
const RULE = '#d9d9d9';
const HEADER_FILL = '#f0f0f0';
const BAR = '#1677ff';
const BODY_SIZE = 9;
/** Tables with this many rows get a bar chart of their first numeric column. */
const CHART_ROWS = { min: 2, max: 30 };
const BAR_ROW = 14;
const CELL_PAD_X = 4;
const CELL_PAD_Y = 3;

/** PDFs made at once in this process: each runs every report's queries and holds its pages in memory. */
export const PARALLEL_PDFS = 2;

/** Runs `work` (making one PDF) once fewer than PARALLEL_PDFS others run; the others wait their turn. */
export const withPdfSlot = workSlots(PARALLEL_PDFS);

/** The whole report as a PDF: the company, the filters, the generation time, then each report's tables. */
export async function reportPdf(reports: Report[], meta: ReportMeta): Promise<Buffer> {
  const headings = reportHeadings('all', meta);
  const title = `${headings[0][1]}: ${meta.company.name}`;
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGINS,
    bufferPages: true,
    info: { Title: title, CreationDate: new Date(meta.generatedAt) },
  });
  const bytes = bytesOf(doc);
  writeHeadingBlock(doc, headings);
  reports.forEach((report, index) => {
    if (index > 0) doc.addPage();
    writeReport(doc, report);
  });
  writeFooters(doc, title);
  doc.end();
  return bytes;
}

function bytesOf(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

const left = (doc: Doc) => doc.page.margins.left;
const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** A new page unless `height` more fits on this one. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

/** A paragraph across the page at the current position. */
function paragraph(doc: Doc, text: string, font: string, size: number, color: string, gapAfter = 0): void {
  doc
    .font(font)
    .fontSize(size)
    .fillColor(color)
    .text(pdfText(text), left(doc), doc.y, { width: contentWidth(doc) });
  doc.y += gapAfter;
}

/** The document's title, then its labelled rows (company, project, period, today, generated). */
function writeHeadingBlock(doc: Doc, headings: [string, string][]): void {
  const [[, title], ...rows] = headings;
  paragraph(doc, title, BOLD, 18, INK, 8);
  const labelWidth = 80;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font(BOLD).fontSize(BODY_SIZE).fillColor(MUTED).text(pdfText(label), left(doc), y, { width: labelWidth });
    doc
      .font(REGULAR)
      .fontSize(BODY_SIZE)
      .fillColor(INK)
      .text(pdfText(value), left(doc) + labelWidth, y, { width: contentWidth(doc) - labelWidth });
    doc.y += 2;
  }
  doc.y += 16;
}

function writeReport(doc: Doc, report: Report): void {
  paragraph(doc, REPORT_LABELS[report.kind], BOLD, 15, INK, 2);
  // The period line as the report's own files say it: "(not applied: as of …)" for the as-of-now reports.
  const period = reportHeadings(report.kind, report.meta).find(([label]) => label === 'Created in');
  if (period) paragraph(doc, `${period[0]}: ${period[1]}`, REGULAR, BODY_SIZE, MUTED);
  if (report.kind === 'workload' && !report.requestsIncluded)
    paragraph(
      doc,
      'Requests are left out: the requests module is off for you in this company.',
      REGULAR,
      BODY_SIZE,
      MUTED,
    );
  doc.y += 10;
  for (const table of reportTables(report)) writeSection(doc, table);
}

/**
 * A table's title, its chart when it has one, and the table; the title never ends a page alone. A table
 * stops at REPORT_PDF_MAX_ROWS rows (its report's XLSX has them all): a PDF is for reading, and pdfkit
 * holds every page in memory until the end.
 */
function writeSection(doc: Doc, whole: ReportTable): void {
  const table = { ...whole, rows: whole.rows.slice(0, REPORT_PDF_MAX_ROWS) };
  const chart = chartOf(table);
  const layout = tableLayout(doc, table);
  const titleHeight = 18;
  ensureSpace(
    doc,
    titleHeight + (chart ? chartHeight(chart) : layout.header.height + (layout.rows[0]?.height ?? BAR_ROW)),
  );
  paragraph(doc, table.title, BOLD, 11, INK, 4);
  if (table.rows.length === 0) {
    paragraph(doc, 'No data for these filters.', REGULAR, BODY_SIZE, MUTED, 14);
    return;
  }
  if (chart) drawChart(doc, chart);
  drawTable(doc, table, layout);
  const more = whole.rows.length - table.rows.length;
  if (more > 0) {
    doc.y += 4;
    ensureSpace(doc, 14);
    paragraph(doc, `… ${more.toLocaleString('en-US')} more rows: see the XLSX`, REGULAR, BODY_SIZE, MUTED);
  }
  doc.y += 14;
}

// Charts: horizontal bars of a table's first numeric column, labelled with its first text column.

interface Chart {
  caption: string;
  bars: { label: string; value: number; text: string }[];
}

function chartOf(table: ReportTable): Chart | null {
  if (table.rows.length < CHART_ROWS.min || table.rows.length > CHART_ROWS.max) return null;
  const valueIndex = table.columns.findIndex((c) => c.type !== 'text');
  if (valueIndex < 0) return null;
  const labelIndex = table.columns.findIndex((c) => c.type === 'text');
  const column = table.columns[valueIndex];
  return {
    caption: column.title,
    bars: table.rows.map((row, index) => {
      const cell = row[valueIndex];
      // A label is drawn on one line.
      return {
        label: labelIndex < 0 ? String(index + 1) : pdfText(String(row[labelIndex])).replace(/\n/g, ' '),
        value: typeof cell === 'number' ? cell : 0,
        text: cellText(cell, column),
      };
    }),
  };
}

const chartHeight = (chart: Chart) => 14 + chart.bars.length * BAR_ROW + 10;

function drawChart(doc: Doc, chart: Chart): void {
  paragraph(doc, chart.caption, BOLD, 8, MUTED, 2);
  doc.font(REGULAR).fontSize(8);
  const width = contentWidth(doc);
  const labelWidth = Math.min(width * 0.35, Math.max(...chart.bars.map((b) => doc.widthOfString(b.label)))) + 8;
  const valueWidth = Math.max(...chart.bars.map((b) => doc.widthOfString(b.text))) + 8;
  const barsLeft = left(doc) + labelWidth;
  const barsWidth = width - labelWidth - valueWidth;
  const max = Math.max(0, ...chart.bars.map((b) => b.value));
  const top = doc.y;
  chart.bars.forEach((bar, index) => {
    const y = top + index * BAR_ROW;
    const length = max > 0 ? (barsWidth * Math.max(0, bar.value)) / max : 0;
    doc.fillColor(INK).text(fitText(doc, bar.label, labelWidth - 8), left(doc), y + 2, { lineBreak: false });
    if (length > 0) doc.rect(barsLeft, y + 2, length, BAR_ROW - 5).fill(BAR);
    doc.fillColor(MUTED).text(bar.text, barsLeft + length + 4, y + 2, { lineBreak: false });
  });
  const end = top + chart.bars.length * BAR_ROW;
  doc.moveTo(barsLeft, top).lineTo(barsLeft, end).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.x = left(doc);
  doc.y = end + 8;
}

// Tables: one line per row (text wraps in its column), page breaks repeat the column titles.

interface Line {
  cells: string[];
  height: number;
}

interface TableLayout {
  widths: number[];
  header: Line;
  rows: Line[];
}

function tableLayout(doc: Doc, table: ReportTable): TableLayout {
  const titles = table.columns.map((c) => pdfText(c.title));
  const rows = table.rows.map((row) => row.map((cell, index) => cellText(cell, table.columns[index])));
  const widths = columnWidths(doc, table.columns, titles, rows);
  return {
    widths,
    header: { cells: titles, height: lineHeight(doc, titles, widths, BOLD) },
    rows: rows.map((cells) => ({ cells, height: lineHeight(doc, cells, widths, REGULAR) })),
  };
}

/**
 * Each column at least its title's longest word and, for numbers, the widest cell; the room left goes
 * to the text columns first (so names wrap least), then to the others, up to their title and widest
 * cell on one line. A table that needs less still spans the page.
 */
function columnWidths(doc: Doc, columns: ReportColumn[], titles: string[], rows: string[][]): number[] {
  const pad = 2 * CELL_PAD_X;
  doc.font(BOLD).fontSize(BODY_SIZE);
  const titleWidths = titles.map((t) => doc.widthOfString(t));
  const longestWords = titles.map((t) => Math.max(...t.split(/\s+/).map((word) => doc.widthOfString(word))));
  doc.font(REGULAR).fontSize(BODY_SIZE);
  const cellWidths = columns.map((_, index) => Math.max(0, ...rows.map((cells) => doc.widthOfString(cells[index]))));
  const desired = columns.map((_, i) => pad + Math.max(titleWidths[i], cellWidths[i]));
  const minimum = columns.map(
    (c, i) => pad + Math.max(longestWords[i], c.type === 'text' ? Math.min(cellWidths[i], 60) : cellWidths[i]),
  );
  const total = contentWidth(doc);
  const sum = (ws: number[]) => ws.reduce((a, b) => a + b, 0);
  if (sum(minimum) >= total) return minimum.map((w) => (w * total) / sum(minimum));
  const widths = [...minimum];
  let room = total - sum(minimum);
  for (const text of [true, false]) {
    const group = columns.flatMap((c, i) => ((c.type === 'text') === text ? [i] : []));
    const wanted = sum(group.map((i) => desired[i] - widths[i]));
    if (wanted <= 0) continue;
    const share = Math.min(1, room / wanted);
    for (const i of group) widths[i] += (desired[i] - widths[i]) * share;
    room -= wanted * share;
  }
  return widths.map((w) => (w * total) / sum(widths));
}

/** Whether the text fits on one line of `width` (most cells: they are drawn without pdfkit's line wrapping, which is slow). */
const oneLine = (doc: Doc, text: string, width: number) => !text.includes('\n') && doc.widthOfString(text) <= width;

function lineHeight(doc: Doc, cells: string[], widths: number[], font: string): number {
  doc.font(font).fontSize(BODY_SIZE);
  const line = doc.currentLineHeight();
  const inner = (i: number) => widths[i] - 2 * CELL_PAD_X;
  const tallest = Math.max(
    line,
    ...cells.map((text, i) => (oneLine(doc, text, inner(i)) ? line : doc.heightOfString(text, { width: inner(i) }))),
  );
  return tallest + 2 * CELL_PAD_Y;
}

function drawTable(doc: Doc, table: ReportTable, layout: TableLayout): void {
  const header = (at: number) => at + drawLine(doc, table.columns, layout.widths, layout.header, at, BOLD, HEADER_FILL);
  const nextPage = () => {
    doc.addPage();
    return header(doc.page.margins.top);
  };
  // The column titles never end a page alone.
  let y = doc.y + layout.header.height + layout.rows[0].height > bottom(doc) ? nextPage() : header(doc.y);
  for (const line of layout.rows) {
    if (y + line.height > bottom(doc)) y = nextPage();
    y += drawLine(doc, table.columns, layout.widths, line, y, REGULAR);
  }
  doc.x = left(doc);
  doc.y = y;
}

/** One row of cells at `y`, numbers right-aligned, with a rule under it; returns its height. */
function drawLine(
  doc: Doc,
  columns: ReportColumn[],
  widths: number[],
  line: Line,
  y: number,
  font: string,
  fill?: string,
): number {
  const width = contentWidth(doc);
  if (fill) doc.rect(left(doc), y, width, line.height).fill(fill);
  doc.font(font).fontSize(BODY_SIZE).fillColor(INK);
  let x = left(doc);
  line.cells.forEach((text, index) => {
    const inner = widths[index] - 2 * CELL_PAD_X;
    const right = columns[index].type !== 'text';
    if (!oneLine(doc, text, inner))
      doc.text(text, x + CELL_PAD_X, y + CELL_PAD_Y, { width: inner, align: right ? 'right' : 'left' });
    else if (text)
      doc.text(text, x + CELL_PAD_X + (right ? inner - doc.widthOfString(text) : 0), y + CELL_PAD_Y, {
        lineBreak: false,
      });
    x += widths[index];
  });
  doc
    .moveTo(left(doc), y + line.height)
    .lineTo(left(doc) + width, y + line.height)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  return line.height;
}

/** A cell as the page shows it: numbers with thousands separators, percentages with %. */
function cellText(cell: Cell, column: ReportColumn): string {
  if (typeof cell === 'string') return pdfText(cell);
  const number = cell.toLocaleString('en-US');
  return column.type === 'percent' ? `${number}%` : number;
}

/** The text cut to `width` with an ellipsis. */
function fitText(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let end = text.length;
  while (end > 0 && doc.widthOfString(`${text.slice(0, end)}…`) > width) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** "Page n of m" at the foot of every page, and the document's title beside it. */
function writeFooters(doc: Doc, title: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    const margin = doc.page.margins.bottom;
    const y = doc.page.height - margin + 24;
    // Text inside the bottom margin would start a new page: the margin is lifted while the footer is written.
    doc.page.margins.bottom = 0;
    doc.font(REGULAR).fontSize(8).fillColor(MUTED);
    const width = contentWidth(doc);
    doc.text(fitText(doc, pdfText(title), width * 0.7), left(doc), y, { width: width * 0.7, lineBreak: false });
    doc.text(`Page ${index - start + 1} of ${count}`, left(doc), y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}
