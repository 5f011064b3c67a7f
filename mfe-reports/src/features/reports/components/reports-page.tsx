/**
 * /reports: the selected company's reports the caller has (GET …/reports/options), one tab each, for
 * a project or all of them and a period of creation. The tab and the filters live in the address, so a
 * reload or a shared link shows the same report; the downloads and the PDF take the same filters.
 * Choosing another company in the header drops the project (it named the old company's).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from '@portal/shared/web/router';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Empty, Result, Skeleton, Tabs } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { localDay } from '@portal/shared/core/requests';
import { REPORT_LABELS, type Report, type ReportKind } from '@portal/shared/core/reports';
import { errorMessage } from '@portal/shared/web/api';
import { useCompanySwitch } from '@portal/shared/web/company-switch';
import { useModuleCompany, type ModuleCompany } from '@portal/shared/web/module-company';
import { useReportsOptionsQuery } from '../../../app/reports-api';
import {
  coverageText,
  reportCallQueryOf,
  reportsStateFrom,
  shownKind,
  withoutCompanyFilters,
  withReportsState,
  type ReportsPageState,
} from '../model/report-state';
import { ReportBody } from './report-body';
import { ReportDownloads } from './report-downloads';
import { ReportFilters } from './report-filters';
import '../reports-page.css';

const header = (actions?: ReactNode) => <PageHeader title="Reports" crumbs={[{ title: 'Reports' }]} extra={actions} />;

export function ReportsPage() {
  const target = useModuleCompany('reports');
  // another company's reports wait until the address no longer names the old company's project
  const switching = useCompanySwitch('blocked' in target ? null : target.companyId, withoutCompanyFilters);

  return (
    <div data-testid="reports">
      {'blocked' in target ? (
        <>
          {header()}
          {target.blocked}
        </>
      ) : switching ? (
        header()
      ) : (
        // the company's key: another company's options, notices and downloads never carry over
        <CompanyReports key={target.companyId} company={target} />
      )}
    </div>
  );
}

function CompanyReports({ company }: { company: ModuleCompany }) {
  const [params, setParams] = useSearchParams();
  const state = reportsStateFrom(params);
  const today = localDay();
  const options = useReportsOptionsQuery(company.companyId);
  const kind = shownKind(state, options.data?.kinds ?? []);

  // A project the caller does not see (a stale or shared link): the reports fall back to all projects, and say so.
  const [projectDropped, setProjectDropped] = useState(false);
  const dropProject = useCallback(() => {
    setProjectDropped(true);
    setParams((prev) => withReportsState(prev, { projectId: null }), { replace: true });
  }, [setParams]);
  const project = options.data?.projects.find((p) => p.id === state.projectId) ?? null;
  const unknownProject = options.data !== undefined && state.projectId !== null && project === null;
  useEffect(() => {
    if (unknownProject) dropProject();
  }, [unknownProject, dropProject]);

  const change = (changes: Partial<ReportsPageState>) => {
    if ('projectId' in changes) setProjectDropped(false);
    setParams(withReportsState(params, changes));
  };

  let content: ReactNode;
  if (options.isError && !options.isFetching) {
    content = (
      <Result
        status="warning"
        title="The reports could not be loaded"
        subTitle={errorMessage(options.error) ?? 'Check your connection and try again.'}
        extra={
          <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void options.refetch()}>
            Try again
          </Button>
        }
      />
    );
  } else if (!options.data) {
    content = (
      <div role="status" aria-label="Loading the reports">
        <Skeleton active />
      </div>
    );
  } else if (!kind) {
    content = <Empty description="No reports are available to you in this company." />;
  } else {
    const { kinds, projects } = options.data;
    // the workload says whether it counts requests; until it answers, the options tell
    const coverage = (k: ReportKind) => (report: Report | undefined) =>
      coverageText(
        k,
        state,
        project?.title ?? null,
        report?.kind === 'workload' ? report.requestsIncluded : kinds.includes('requests'),
      );
    content = (
      <>
        {projectDropped ? (
          <Alert
            type="info"
            showIcon
            closable={{ onClose: () => setProjectDropped(false) }}
            style={{ marginBottom: 16 }}
            title="The project of the link is not available to you: the reports show all projects."
          />
        ) : null}
        <ReportFilters projects={projects} state={state} today={today} onChange={change} />
        <Tabs
          activeKey={kind}
          onChange={(key) => change({ report: key as ReportKind })}
          items={kinds.map((k) => ({
            key: k,
            label: REPORT_LABELS[k],
            // only the open tab asks for its report
            children:
              k === kind && !unknownProject ? (
                <ReportBody
                  args={{ companyId: company.companyId, kind: k, ...reportCallQueryOf(k, state, today) }}
                  coverage={coverage(k)}
                  onProjectGone={dropProject}
                />
              ) : null,
          }))}
        />
      </>
    );
  }

  return (
    <>
      {header(
        <ReportDownloads
          company={{ id: company.companyId, name: company.companyName }}
          kind={unknownProject ? null : kind}
          state={state}
          today={today}
        />,
      )}
      {content}
    </>
  );
}
