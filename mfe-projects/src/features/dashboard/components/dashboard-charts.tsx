/**
 * Home's charts from the company's project summary: projects by status, tasks by status and overdue
 * work. Each chart has its numbers beside it in a small table (readable without the canvas). This is
 * the only chunk that loads chart.js.
 */
import { useMemo, type ReactNode } from 'react';
import { Link } from '@portal/shared/web/router';
import { ReloadOutlined, theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Col, Empty, Flex, Row, Skeleton, Statistic } from '@portal/shared/ui/extra';
import {
  PROJECT_STATUSES,
  PROJECT_STATUS_LABELS,
  TASK_STATUSES,
  TASK_STATUS_LABELS,
  type ProjectsSummary,
} from '@portal/shared/core/projects';
import { errorMessage } from '@portal/shared/web/api';
import { projectPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { OVERDUE_COLOR, PROJECT_STATUS_COLORS, TASK_STATUS_COLORS } from '../../../app/status-colors';
import { ChartCanvas } from './chart-canvas';

interface Count {
  key: string;
  label: ReactNode;
  text: string;
  color: string;
  count: number;
}

/** The numbers of a chart: a swatch in the chart's colour, the name and the count. */
function CountsTable({ label, counts, total }: { label: string; counts: Count[]; total?: number }) {
  const { token } = theme.useToken();
  const cell = { padding: '2px 0', fontSize: token.fontSizeSM };
  return (
    <table aria-label={label} style={{ width: '100%', borderCollapse: 'collapse' }}>
      <tbody>
        {counts.map((c) => (
          <tr key={c.key}>
            <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'normal' }}>
              <span
                aria-hidden
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  borderRadius: 2,
                  marginRight: 8,
                  background: c.color,
                }}
              />
              {c.label}
            </th>
            <td style={{ ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{c.count}</td>
          </tr>
        ))}
      </tbody>
      {total !== undefined ? (
        <tfoot>
          <tr>
            <th
              scope="row"
              style={{ ...cell, textAlign: 'left', borderTop: `1px solid ${token.colorBorderSecondary}` }}
            >
              Total
            </th>
            <td
              style={{
                ...cell,
                textAlign: 'right',
                fontWeight: 600,
                borderTop: `1px solid ${token.colorBorderSecondary}`,
              }}
            >
              {total}
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

function ChartCard({
  title,
  type,
  counts,
  total,
  empty,
  horizontal,
  children,
}: {
  title: string;
  type: 'doughnut' | 'bar';
  counts: Count[];
  total?: number;
  empty: string;
  horizontal?: boolean;
  children?: ReactNode;
}) {
  const { token } = theme.useToken();
  const chart = useMemo(
    () => ({
      labels: counts.map((c) => c.text),
      values: counts.map((c) => c.count),
      colors: counts.map((c) => c.color),
    }),
    [counts],
  );
  const nothing = counts.every((c) => c.count === 0);
  return (
    <Card title={title} style={{ height: '100%' }}>
      <section aria-label={title}>
        <Flex vertical gap="middle">
          {children}
          {nothing ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
          ) : (
            <ChartCanvas
              type={type}
              label={`${title} chart`}
              labels={chart.labels}
              values={chart.values}
              colors={chart.colors}
              horizontal={horizontal}
              textColor={token.colorTextSecondary}
              gridColor={token.colorBorderSecondary}
            />
          )}
          {counts.length ? <CountsTable label={`${title} counts`} counts={counts} total={total} /> : null}
        </Flex>
      </section>
    </Card>
  );
}

function countsOf(summary: ProjectsSummary) {
  const projects: Count[] = PROJECT_STATUSES.map((s) => ({
    key: s,
    label: PROJECT_STATUS_LABELS[s],
    text: PROJECT_STATUS_LABELS[s],
    color: PROJECT_STATUS_COLORS[s],
    count: summary.projectsByStatus[s] ?? 0,
  }));
  const tasks: Count[] = TASK_STATUSES.map((s) => ({
    key: s,
    label: TASK_STATUS_LABELS[s],
    text: TASK_STATUS_LABELS[s],
    color: TASK_STATUS_COLORS[s],
    count: summary.tasksByStatus[s] ?? 0,
  }));
  const overdue: Count[] = summary.overdueByProject.map((p) => ({
    key: p.projectId,
    label: <Link to={projectPath(p.projectId)}>{p.title}</Link>,
    text: p.title,
    color: OVERDUE_COLOR,
    count: p.overdue,
  }));
  const sum = (cs: Count[]) => cs.reduce((n, c) => n + c.count, 0);
  return { projects, tasks, overdue, projectsTotal: sum(projects), tasksTotal: sum(tasks) };
}

export function DashboardCharts({ companyId }: { companyId: string }) {
  const summary = projectsApi.useProjectsSummaryQuery(companyId);
  const counts = useMemo(() => (summary.data ? countsOf(summary.data) : null), [summary.data]);

  if (summary.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="The charts could not be loaded"
        description={errorMessage(summary.error) ?? 'Check your connection and try again.'}
        action={
          <Button icon={<ReloadOutlined />} onClick={() => void summary.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }
  if (!summary.data || !counts) {
    return (
      <Row gutter={[16, 16]}>
        {['Projects by status', 'Tasks by status', 'Overdue work'].map((title) => (
          <Col key={title} xs={24} lg={8}>
            <Card title={title}>
              <Skeleton active paragraph={{ rows: 5 }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <ChartCard
          title="Projects by status"
          type="doughnut"
          counts={counts.projects}
          total={counts.projectsTotal}
          empty="No projects yet"
        />
      </Col>
      <Col xs={24} lg={8}>
        <ChartCard
          title="Tasks by status"
          type="doughnut"
          counts={counts.tasks}
          total={counts.tasksTotal}
          empty="No tasks yet"
        />
      </Col>
      <Col xs={24} lg={8}>
        <ChartCard title="Overdue work" type="bar" horizontal counts={counts.overdue} empty="Nothing is overdue">
          <Flex gap="large">
            <Statistic
              title="Overdue tasks"
              value={summary.data.overdueTotal}
              styles={{ content: { color: summary.data.overdueTotal ? OVERDUE_COLOR : undefined } }}
            />
            <Statistic title="Due in the next 7 days" value={summary.data.dueThisWeek} />
          </Flex>
        </ChartCard>
      </Col>
    </Row>
  );
}
