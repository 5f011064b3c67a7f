import type { ReportTable } from '@portal/shared/core/reports';
import { cellText, type DayBucket } from './report-cells';

/**
 * A report table as plain HTML for print: every row, no pager or sort buttons. Rendered only while the
 * page prints (a report can list thousands of people).
 */
export function PrintTable({ table, days = null }: { table: ReportTable; days?: DayBucket | null }) {
  const align = (i: number) => (table.columns[i].type === 'text' ? 'left' : 'right');
  return (
    <table className="report-print-table">
      <thead>
        <tr>
          {table.columns.map((column, i) => (
            <th key={column.key} scope="col" style={{ textAlign: align(i) }}>
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, r) => (
          <tr key={r}>
            {row.map((value, i) => (
              <td key={table.columns[i].key} style={{ textAlign: align(i) }}>
                {cellText(table.columns[i], value, days)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
