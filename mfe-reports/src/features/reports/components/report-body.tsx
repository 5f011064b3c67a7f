/**
 * One report for the page's filters, under the line that says what its figures cover and when they were
 * computed (with "Refresh": the api counts again). A skeleton until its first answer; while other
 * filters load, the last numbers stay, dimmed under a spinner; a failure says the api's reason with "Try
 * again". A project the caller no longer sees (404 project_not_found: a stale link) is handed back to the
 * page to drop.
 */
import { useEffect } from 'react';
import { ReloadOutlined, Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Flex, Result, Skeleton, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import type { Report } from '@portal/shared/core/reports';
import { errorMessage } from '@portal/shared/web/api';
import { ReportView } from '../../../components/report-views/report-view';
import { useReportsGetQuery, type ReportArgs } from '../../../app/reports-api';

/** A report kept this long is shown as it is when its tab opens again; an older one is asked again. */
const REPORT_FRESH_SECONDS = 30;

function isProjectGone(error: unknown): boolean {
  const e = error as { status?: unknown; data?: { code?: unknown } } | undefined;
  return e?.status === 404 && e.data?.code === 'project_not_found';
}

export function ReportBody({
  args,
  coverage,
  onProjectGone,
}: {
  args: ReportArgs;
  /** What the figures cover, for the report shown (none yet: while the first answer loads). */
  coverage: (report: Report | undefined) => string;
  onProjectGone: () => void;
}) {
  const { data, error, isError, isFetching, refetch } = useReportsGetQuery(args, {
    refetchOnMountOrArgChange: REPORT_FRESH_SECONDS,
  });
  const projectGone = isError && isProjectGone(error);
  useEffect(() => {
    if (projectGone) onProjectGone();
  }, [projectGone, onProjectGone]);

  if (projectGone) return null;
  const failed = isError && !isFetching;
  const heading = (
    <Flex gap="small" wrap align="baseline" justify="space-between" style={{ marginBottom: 16 }}>
      <Typography.Text type="secondary">{coverage(data)}</Typography.Text>
      {data && !failed ? (
        <Flex gap="small" align="center">
          <Typography.Text type="secondary">Figures as of {formatDateTime(data.meta.generatedAt)}</Typography.Text>
          <Button
            className="reports-screen-controls"
            size="small"
            icon={<ReloadOutlined aria-hidden />}
            loading={isFetching}
            aria-busy={isFetching || undefined}
            onClick={() => void refetch()}
          >
            Refresh
          </Button>
        </Flex>
      ) : null}
    </Flex>
  );
  if (failed) {
    return (
      <>
        {heading}
        <Result
          status="error"
          title="The report could not be loaded"
          subTitle={errorMessage(error) ?? 'Check your connection and try again.'}
          extra={
            <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      </>
    );
  }
  if (!data) {
    return (
      <>
        {heading}
        <div role="status" aria-label="Loading the report">
          <Skeleton active />
        </div>
      </>
    );
  }
  // The numbers of other filters, kept while these load (RTK's `data`: the last answer of this tab).
  return (
    <>
      {heading}
      <Spin spinning={isFetching}>
        <div aria-busy={isFetching} style={{ opacity: isFetching ? 0.5 : 1, transition: 'opacity 0.2s' }}>
          <ReportView report={data} />
        </div>
      </Spin>
    </>
  );
}
