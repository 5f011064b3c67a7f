import { useMemo } from 'react';
import { deferred } from '@portal/shared/web/deferred';
import { Card, Empty, Segmented, Skeleton, Typography } from '@portal/shared/ui/extra';
import type { ReportTable } from '@portal/shared/core/reports';
import { ChartBoundary } from './chart-boundary';
import { chartPlanOf } from './chart-plan';
import { PrintTable } from './print-table';
import type { DayBucket } from './report-cells';
import { ReportTableView } from './report-table-view';
import { usePrinting } from './use-printing';
import { useViewChoice, type ViewChoice } from './use-view-choice';

const ReportChart = deferred(() => import('./report-chart'));

const VIEW_OPTIONS: { label: string; value: ViewChoice }[] = [
  { label: 'Chart', value: 'chart' },
  { label: 'Table', value: 'table' },
];

export const NO_DATA = 'No data for these filters';
export const CHART_UNAVAILABLE = 'The chart could not be loaded: the table shows its numbers.';

/**
 * One table of a report in a card: its chart or its table, as the reader chose. Print shows every table
 * in full whatever the choice (report-views.css): the screen part carries `report-screen-only`; the
 * print copy, rendered only while the page prints, carries `report-print-only` and the `hidden`
 * attribute, which keeps it off the screen and out of the accessibility tree meanwhile.
 * `days`: the bucket of the report's progress series, which names its days.
 */
export function ReportSection({ table, days = null }: { table: ReportTable; days?: DayBucket | null }) {
  const [view, setView] = useViewChoice(table.key);
  const plan = useMemo(() => chartPlanOf(table, days), [table, days]);
  const printing = usePrinting();

  if (!table.rows.length) {
    return (
      <Card role="region" aria-label={table.title} title={table.title} size="small">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_DATA} />
      </Card>
    );
  }
  const tableView = <ReportTableView table={table} days={days} />;
  return (
    <Card
      role="region"
      aria-label={table.title}
      title={table.title}
      size="small"
      extra={
        plan ? (
          <Segmented<ViewChoice>
            className="report-screen-only"
            size="small"
            aria-label={`${table.title}: show as`}
            options={VIEW_OPTIONS}
            value={view}
            onChange={setView}
          />
        ) : null
      }
    >
      <div className="report-screen-only">
        {view === 'chart' && plan ? (
          plan.blank ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Every figure is 0 for these filters" />
          ) : (
            <ChartBoundary
              fallback={
                <>
                  <Typography.Paragraph type="secondary">{CHART_UNAVAILABLE}</Typography.Paragraph>
                  {tableView}
                </>
              }
            >
              <ReportChart plan={plan} fallback={<Skeleton active paragraph={{ rows: 6 }} />} />
              {plan.note ? <Typography.Text type="secondary">{plan.note}</Typography.Text> : null}
            </ChartBoundary>
          )
        ) : (
          tableView
        )}
      </div>
      {printing ? (
        <div className="report-print-only" hidden>
          <PrintTable table={table} days={days} />
        </div>
      ) : null}
    </Card>
  );
}
