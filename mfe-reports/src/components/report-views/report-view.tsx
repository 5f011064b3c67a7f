import { useMemo } from 'react';
import { Card, Col, Row, Statistic } from '@portal/shared/ui/extra';
import { reportTables, type Report, type ReportTable } from '@portal/shared/core/reports';
import { isSummary } from './chart-plan';
import { cellText } from './report-cells';
import { ReportSection } from './report-section';
import './report-views.css';

/** Grid width (of 24) of a table's card on wide screens: the small charts share a row. */
function spanOf(table: ReportTable): number {
  switch (table.key) {
    case 'status.byStatus':
    case 'status.progress':
      return 12;
    case 'requests.byStatus':
    case 'requests.openByAge':
    case 'requests.timeToAccept':
      return 8;
    default:
      return 24;
  }
}

/** The summary table's one row as figures, titled with its column titles. */
function SummaryFigures({ table }: { table: ReportTable }) {
  const [row = []] = table.rows;
  return (
    <Card role="region" aria-label={table.title} title={table.title} size="small">
      <Row gutter={[24, 16]}>
        {table.columns.map((column, i) => (
          <Col key={column.key} xs={12} sm={8} lg={4}>
            <Statistic title={column.title} value={cellText(column, row[i] ?? '')} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/**
 * One report on the page: its summary figures, then each of its tables (reportTables) as a chart with a
 * "Chart | Table" switch; the table view shows the same numbers (and is what prints).
 */
export function ReportView({ report }: { report: Report }) {
  const tables = useMemo(() => reportTables(report), [report]);
  const days = report.kind === 'status' ? report.progress.bucket : null;
  return (
    <div className="report-view" data-testid={`report-${report.kind}`}>
      <Row gutter={[16, 16]}>
        {tables.map((table) => (
          <Col key={table.key} xs={24} lg={spanOf(table)}>
            {isSummary(table) ? (
              <SummaryFigures table={table} />
            ) : (
              <ReportSection table={table} days={table.key === 'status.progress' ? days : null} />
            )}
          </Col>
        ))}
      </Row>
    </div>
  );
}
