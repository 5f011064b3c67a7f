import { useMemo } from 'react';
import { Table, type TableProps } from '@portal/shared/ui/extra';
import type { ReportTable } from '@portal/shared/core/reports';
import { cellText, compareCells, type DayBucket } from './report-cells';

/** Beyond this many rows the table pages (the printed copy, print-table.tsx, has every row). */
export const TABLE_PAGE_SIZE = 50;

interface Row {
  index: number;
  cells: (string | number)[];
}

function columnsOf(table: ReportTable, days: DayBucket | null): TableProps<Row>['columns'] {
  return table.columns.map((column, i) => ({
    key: column.key,
    title: column.title,
    align: column.type === 'text' ? 'left' : 'right',
    render: (_: unknown, row: Row) => cellText(column, row.cells[i], days),
    sorter: (a: Row, b: Row) => compareCells(column, a.cells[i], b.cells[i]),
  }));
}

/** The numbers of one report table, in the table's own columns (the chart draws these same rows). */
export function ReportTableView({ table, days = null }: { table: ReportTable; days?: DayBucket | null }) {
  const columns = useMemo(() => columnsOf(table, days), [table, days]);
  const rows = useMemo(() => table.rows.map((cells, index) => ({ index, cells })), [table]);
  return (
    <Table<Row>
      size="small"
      columns={columns}
      dataSource={rows}
      rowKey="index"
      scroll={{ x: 'max-content' }}
      pagination={rows.length > TABLE_PAGE_SIZE ? { pageSize: TABLE_PAGE_SIZE, showSizeChanger: false } : false}
    />
  );
}
