import { TASK_STATUS_COLORS } from '@portal/shared/core/projects';
import {
  reportTables,
  type ControlsReport,
  type Report,
  type ReportTable,
  type WorkloadReport,
} from '@portal/shared/core/reports';
import { sampleControls, sampleRequests, sampleStatus, sampleWorkload } from '../../testing/sample-reports';
import { REQUEST_STATUS_CHART_COLORS } from './chart-colors';
import { CHART_MAX_ROWS, chartPlanOf, recordsOf, type ChartPlan, type ChartSpec } from './chart-plan';
import type { DayBucket } from './report-cells';

const tableOf = (report: Report, key: string): ReportTable => {
  const table = reportTables(report).find((t) => t.key === key);
  if (!table) throw new Error(`no table ${key}`);
  return table;
};

const planOf = (report: Report, key: string, days: DayBucket | null = null): ChartPlan => {
  const plan = chartPlanOf(tableOf(report, key), days);
  if (!plan) throw new Error(`no chart for ${key}`);
  return plan;
};

const bars = (spec: ChartSpec) => {
  if (spec.type !== 'bars') throw new Error(`expected bars, got ${spec.type}`);
  return spec;
};

const person = (i: number, total: number): WorkloadReport['people'][number] => ({
  userId: `u${i}`,
  name: `Person ${String(i).padStart(2, '0')}`,
  email: `p${i}@acme.test`,
  staff: false,
  openTasks: total - 1,
  overdueTasks: 0,
  activeRequests: 1,
  overdueRequests: 0,
  total,
});

describe('chart plans', () => {
  it('draws no chart for the summaries: they are figures', () => {
    for (const report of [sampleStatus(), sampleRequests(), sampleControls(), sampleWorkload()]) {
      const summary = reportTables(report).find((t) => t.key.endsWith('.totals'));
      expect(summary && chartPlanOf(summary)).toBeNull();
    }
  });

  it('draws tasks by status as a donut in the task status colours, with the table numbers', () => {
    const { spec, label } = planOf(sampleStatus(), 'status.byStatus');
    expect(spec).toEqual({
      type: 'donut',
      slices: [
        { name: 'Open', value: 12, fill: TASK_STATUS_COLORS.OPEN },
        { name: 'In progress', value: 8, fill: TASK_STATUS_COLORS.IN_PROGRESS },
        { name: 'Incomplete', value: 2, fill: TASK_STATUS_COLORS.INCOMPLETE },
        { name: 'In review', value: 3, fill: TASK_STATUS_COLORS.IN_REVIEW },
        { name: 'Completed', value: 13, fill: TASK_STATUS_COLORS.COMPLETED },
        { name: 'Not applicable', value: 2, fill: TASK_STATUS_COLORS.NOT_APPLICABLE },
      ],
    });
    expect(label).toBe(
      'Donut chart: Tasks by status. Open 12; In progress 8; Incomplete 2; In review 3; Completed 13; Not applicable 2',
    );
  });

  it('draws progress as created and closed lines over an open area, its days named for the bucket', () => {
    const { spec, label } = planOf(sampleStatus(), 'status.progress', 'week');
    if (spec.type !== 'progress') throw new Error(spec.type);
    expect(spec.days).toBe('week');
    expect(label).toBe(
      'Line chart: Progress by week. Nov 2: Created 20, Closed 5, Open at end 15; Nov 9: Created 12, Closed 6, Open at end 21; Nov 16: Created 8, Closed 4, Open at end 25',
    );
    expect(spec.lines.map((s) => [s.key, s.title])).toEqual([
      ['created', 'Created'],
      ['closed', 'Closed'],
    ]);
    expect([spec.area.key, spec.area.title]).toEqual(['open', 'Open at end']);
    expect(spec.data.map((d) => [d.start, d.created, d.closed, d.open])).toEqual([
      ['2026-11-02', 20, 5, 15],
      ['2026-11-09', 12, 6, 21],
      ['2026-11-16', 8, 4, 25],
    ]);
  });

  it('stacks open and closed tasks per project, and groups the controls coverage per project', () => {
    const status = planOf(sampleStatus(), 'status.byProject');
    expect(bars(status.spec)).toMatchObject({ horizontal: true, stacked: true, category: 'title' });
    expect(bars(status.spec).series.map((s) => s.key)).toEqual(['open', 'closed']);
    expect(status.label).toBe(
      'Stacked bar chart: Projects. SOC 2 Type II: Open 18, Closed 12; Vendor risk review: Open 7, Closed 3',
    );

    const controls = bars(planOf(sampleControls(), 'controls.byProject').spec);
    expect(controls).toMatchObject({ horizontal: true, stacked: false, category: 'title' });
    expect(controls.series.map((s) => s.title)).toEqual(['Controls', 'With tasks', 'With evidence']);
  });

  it(`charts the ${CHART_MAX_ROWS} projects with the most tasks or controls, and says the table has them all`, () => {
    // title order, so the largest are not simply the first rows
    const sizes = Array.from({ length: 18 }, (_, i) => (i === 2 ? 500 : i + 1));
    const status = sampleStatus();
    status.byProject = sizes.map((n, i) => ({
      projectId: `p${i}`,
      title: `Project ${String(i).padStart(2, '0')}`,
      status: 'active',
      tasks: n,
      open: n - 1,
      closed: 1,
      overdue: 0,
      percentClosed: 0,
    }));
    const plan = planOf(status, 'status.byProject');
    const shown = bars(plan.spec).data.map((d) => d.title);
    expect(shown).toHaveLength(CHART_MAX_ROWS);
    expect(shown[0]).toBe('Project 02');
    expect(shown).not.toEqual(expect.arrayContaining(['Project 00', 'Project 01', 'Project 03']));
    expect(plan.note).toBe(
      `The chart shows the ${CHART_MAX_ROWS} projects with the most tasks of 18; the table lists every project.`,
    );

    // controls: by their number of controls, whatever their coverage
    const controls: ControlsReport = sampleControls();
    controls.byProject = sizes.map((n, i) => ({
      projectId: `p${i}`,
      title: `Project ${String(i).padStart(2, '0')}`,
      controls: n,
      withTasks: i === 0 ? 1000 : 0,
      withEvidence: 0,
      pointsOfFocus: 0,
      pointsOfFocusCovered: 0,
      percentCovered: 0,
    }));
    const coverage = planOf(controls, 'controls.byProject');
    expect(bars(coverage.spec).data.map((d) => d.title)).not.toContain('Project 00');
    expect(coverage.note).toBe(
      `The chart shows the ${CHART_MAX_ROWS} projects with the most controls of 18; the table lists every project.`,
    );
    expect(planOf(sampleStatus(), 'status.byProject').note).toBeUndefined();
  });

  it('draws the requests counts as plain bars of their one figure', () => {
    for (const [key, category] of [
      ['requests.byStatus', 'status'],
      ['requests.openByAge', 'bucket'],
      ['requests.timeToAccept', 'bucket'],
    ]) {
      const { spec } = planOf(sampleRequests(), key);
      expect(bars(spec)).toMatchObject({ horizontal: false, stacked: false, category });
      expect(bars(spec).series.map((s) => s.title)).toEqual(['Requests']);
      expect(bars(spec).data).toEqual(recordsOf(tableOf(sampleRequests(), key)));
    }
    expect(planOf(sampleRequests(), 'requests.openByAge').label).toBe(
      'Bar chart: Active requests by age. 0–7 days 4; 8–30 days 3; 31–90 days 2; Over 90 days 0',
    );
  });

  it('colours the requests by status as the request tags do, and only those', () => {
    expect(bars(planOf(sampleRequests(), 'requests.byStatus').spec).categoryColors).toEqual({
      Open: REQUEST_STATUS_CHART_COLORS.open,
      Submitted: REQUEST_STATUS_CHART_COLORS.submitted,
      Returned: REQUEST_STATUS_CHART_COLORS.returned,
      Accepted: REQUEST_STATUS_CHART_COLORS.accepted,
      Canceled: REQUEST_STATUS_CHART_COLORS.canceled,
    });
    expect(REQUEST_STATUS_CHART_COLORS).toEqual({
      open: '#1677ff',
      submitted: '#722ed1',
      returned: '#fa8c16',
      accepted: '#52c41a',
      canceled: '#8c8c8c',
    });
    expect(bars(planOf(sampleRequests(), 'requests.openByAge').spec).categoryColors).toBeUndefined();
  });

  it('stacks active and accepted requests per assignee, the unassigned row included', () => {
    const spec = bars(planOf(sampleRequests(), 'requests.byAssignee').spec);
    expect(spec).toMatchObject({ horizontal: true, stacked: true, category: 'name' });
    expect(spec.series.map((s) => s.key)).toEqual(['active', 'accepted']);
    expect(spec.data.map((d) => d.name)).toEqual(['Ada Lovelace', 'Unassigned']);
  });

  it('stacks open tasks and active requests per person, and leaves requests out when the report has none', () => {
    expect(bars(planOf(sampleWorkload(), 'workload.people').spec).series.map((s) => s.title)).toEqual([
      'Open tasks',
      'Active requests',
    ]);
    const without = planOf(sampleWorkload(undefined, false), 'workload.people');
    expect(bars(without.spec).series.map((s) => s.title)).toEqual(['Open tasks']);
    expect(without.label).toBe('Bar chart: Workload by person. Ada Lovelace 7; Carla Consultant 4');
  });

  it(`charts the ${CHART_MAX_ROWS} busiest people and says the table has everyone`, () => {
    // name order, so the busiest are not simply the first rows
    const people = Array.from({ length: 20 }, (_, i) => person(i, i === 3 ? 100 : i + 1));
    const plan = planOf({ ...sampleWorkload(), people }, 'workload.people');
    const shown = bars(plan.spec).data.map((d) => d.name);
    expect(shown).toHaveLength(CHART_MAX_ROWS);
    expect(shown[0]).toBe('Person 03');
    // the five least busy (totals 1, 2, 3, 5 and 6) are left out
    expect(shown).not.toEqual(
      expect.arrayContaining(['Person 00', 'Person 01', 'Person 02', 'Person 04', 'Person 05']),
    );
    expect(plan.note).toBe(`The chart shows the ${CHART_MAX_ROWS} busiest of 20; the table lists everyone.`);
    expect(plan.label).toBe('Stacked bar chart: Workload by person, 15 rows (the table view lists the numbers)');
  });

  it('has no note when every person is charted', () => {
    expect(planOf(sampleWorkload(), 'workload.people').note).toBeUndefined();
  });

  it('is blank when every figure is 0, and not when one is not', () => {
    const none = sampleStatus();
    none.byStatus = none.byStatus.map((s) => ({ ...s, count: 0 }));
    expect(planOf(none, 'status.byStatus').blank).toBe(true);
    expect(planOf(sampleStatus(), 'status.byStatus').blank).toBe(false);
    const idle = sampleRequests();
    idle.openByAge = idle.openByAge.map((b) => ({ ...b, count: b.bucket === 'older' ? 1 : 0 }));
    expect(planOf(idle, 'requests.openByAge').blank).toBe(false);
  });
});
