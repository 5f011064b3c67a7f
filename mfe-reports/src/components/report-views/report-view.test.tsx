import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@portal/shared/testing';
import { reportTables, type Report, type WorkloadReport } from '@portal/shared/core/reports';
import { sampleControls, sampleRequests, sampleStatus, sampleWorkload } from '../../testing/sample-reports';
import { NO_DATA } from './report-section';
import { ReportView } from './report-view';
import { viewChoiceKey } from './use-view-choice';

beforeEach(() => window.localStorage.clear());

const region = (name: string) => screen.getByRole('region', { name });

/** The value of the summary figure titled `title`, as shown. */
const figure = (title: string, summary = 'Summary') =>
  within(region(summary))
    .getByText(title, { selector: '.ant-statistic-title' })
    .closest('.ant-statistic')
    ?.querySelector('.ant-statistic-content')?.textContent;

/** The browser opening (then closing) its print dialog. */
const print = (event: 'beforeprint' | 'afterprint') => act(() => void window.dispatchEvent(new Event(event)));

/** The visible table of a region, as rows of cell texts (header row first). */
function tableText(name: string): string[][] {
  const table = within(region(name)).getByRole('table');
  return within(table)
    .getAllByRole('row')
    .map((row) => {
      const headers = within(row).queryAllByRole('columnheader');
      return (headers.length ? headers : within(row).getAllByRole('cell')).map((cell) => cell.textContent ?? '');
    });
}

/** Clicks a view switch's label (antd keeps the radio itself out of pointer reach). */
const choose = async (name: string, view: 'Chart' | 'Table') =>
  userEvent.click(within(region(name)).getByRole('radio', { name: view }).closest('label') as HTMLElement);
const showTable = (name: string) => choose(name, 'Table');

describe('ReportView', () => {
  it.each<[string, Report]>([
    ['status', sampleStatus()],
    ['requests', sampleRequests()],
    ['controls', sampleControls()],
    ['workload', sampleWorkload()],
  ])('renders the %s report: its summary figures and a region per table, each with a chart', async (_kind, report) => {
    renderWithProviders(<ReportView report={report} />);
    const [summary, ...tables] = reportTables(report);
    summary.columns.forEach((column, i) => {
      const shown = column.type === 'percent' ? `${summary.rows[0][i]}%` : String(summary.rows[0][i]);
      expect(figure(column.title, summary.title)).toBe(shown);
    });
    for (const table of tables) {
      expect(
        await within(region(table.title)).findByRole('img', { name: new RegExp(`chart: ${table.title}`) }),
      ).toBeInTheDocument();
      expect(within(region(table.title)).getByRole('radio', { name: 'Chart' })).toBeChecked();
    }
  });

  it('shows the summary percent with % and an unknown figure as a dash', () => {
    renderWithProviders(
      <ReportView
        report={{
          ...sampleRequests(),
          totals: { ...sampleRequests().totals, returnedRate: null, averageDaysToAccept: null },
        }}
      />,
    );
    expect(figure('Returned %')).toBe('—');
    expect(figure('Average days to accept')).toBe('—');
    expect(figure('Requests')).toBe('14');
  });

  it('groups the thousands of the summary figures', () => {
    renderWithProviders(
      <ReportView
        report={{
          ...sampleStatus(),
          totals: { tasks: 123456, open: 1000, closed: 122456, overdue: 7, percentClosed: 99.2 },
        }}
      />,
    );
    expect(figure('Tasks')).toBe('123,456');
    expect(figure('Open')).toBe('1,000');
    expect(figure('Closed %')).toBe('99.2%');
  });

  it('names each chart with its numbers', async () => {
    renderWithProviders(<ReportView report={sampleStatus()} />);
    expect(
      await within(region('Tasks by status')).findByRole('img', { name: /Open 12; In progress 8;/ }),
    ).toBeInTheDocument();
    expect(
      await within(region('Projects')).findByRole('img', { name: /SOC 2 Type II: Open 18, Closed 12/ }),
    ).toBeInTheDocument();
  });

  it('shows the same numbers as a table, right-aligned, with percent signs', async () => {
    renderWithProviders(<ReportView report={sampleStatus()} />);
    await showTable('Projects');
    expect(tableText('Projects')).toEqual([
      ['Project', 'Status', 'Tasks', 'Open', 'Closed', 'Overdue', 'Closed %'],
      ['SOC 2 Type II', 'Active', '30', '18', '12', '5', '40%'],
      ['Vendor risk review', 'Pending', '10', '7', '3', '1', '30%'],
    ]);
    const [project, status, tasks] = within(within(region('Projects')).getByRole('table')).getAllByRole('cell');
    expect(project).toHaveStyle({ textAlign: 'left' });
    expect(status).toHaveStyle({ textAlign: 'left' });
    expect(tasks).toHaveStyle({ textAlign: 'right' });
    expect(within(region('Projects')).queryByRole('img', { name: /chart/ })).not.toBeInTheDocument();

    await showTable('Tasks by status');
    expect(tableText('Tasks by status')).toEqual([
      ['Status', 'Tasks'],
      ['Open', '12'],
      ['In progress', '8'],
      ['Incomplete', '2'],
      ['In review', '3'],
      ['Completed', '13'],
      ['Not applicable', '2'],
    ]);
  });

  it('sorts a table by a number column', async () => {
    renderWithProviders(<ReportView report={sampleRequests()} />);
    await showTable('Requests by status');
    await userEvent.click(within(region('Requests by status')).getByRole('columnheader', { name: 'Requests' }));
    expect(
      tableText('Requests by status')
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(['2', '2', '2', '3', '5']);
  });

  it('remembers the choice per table across renders, and switches back', async () => {
    const first = renderWithProviders(<ReportView report={sampleControls()} />);
    await showTable('Coverage by project');
    expect(window.localStorage.getItem(viewChoiceKey('controls.byProject'))).toBe('table');
    first.unmount();

    renderWithProviders(<ReportView report={sampleControls()} />);
    const coverage = region('Coverage by project');
    expect(within(coverage).getByRole('radio', { name: 'Table' })).toBeChecked();
    expect(tableText('Coverage by project')[1]).toEqual(['SOC 2 Type II', '20', '18', '8', '40%', '50', '21']);

    await choose('Coverage by project', 'Chart');
    expect(
      await within(coverage).findByRole('img', { name: /Grouped bar chart: Coverage by project/ }),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem(viewChoiceKey('controls.byProject'))).toBe('chart');
  });

  it('puts every table in the page while it prints, hidden on screen, and takes them out after', async () => {
    const { container } = renderWithProviders(<ReportView report={sampleStatus()} />);
    await within(region('Projects')).findByRole('img', { name: /chart/ });
    expect(container.querySelectorAll('.report-print-only')).toHaveLength(0);

    print('beforeprint');
    expect(container.querySelectorAll('.report-print-only')).toHaveLength(3);
    const printed = region('Projects').querySelector('.report-print-only');
    expect(printed).toHaveAttribute('hidden');
    expect(within(printed as HTMLElement).getAllByRole('row', { hidden: true })).toHaveLength(3);
    // the charts and the switches are what print leaves out
    expect(
      within(region('Projects')).getByRole('img', { name: /chart/ }).closest('.report-screen-only'),
    ).not.toBeNull();
    expect(within(region('Projects')).getByRole('radiogroup')).toHaveClass('report-screen-only');

    print('afterprint');
    expect(container.querySelectorAll('.report-print-only')).toHaveLength(0);
  });

  it('names the progress days as people read them, weeks by their first day and months by name', async () => {
    renderWithProviders(<ReportView report={sampleStatus()} />);
    expect(
      await within(region('Progress by week')).findByRole('img', {
        name: /^Line chart: Progress by week\. Nov 2: Created 20, Closed 5, Open at end 15; Nov 9:/,
      }),
    ).toBeInTheDocument();
    await showTable('Progress by week');
    expect(tableText('Progress by week')).toEqual([
      ['From', 'To', 'Created', 'Closed', 'Open at end'],
      ['Nov 2', 'Nov 8', '20', '5', '15'],
      ['Nov 9', 'Nov 15', '12', '6', '21'],
      ['Nov 16', 'Nov 22', '8', '4', '25'],
    ]);
  });

  it('names the months of a monthly progress series, in the table and in print', async () => {
    const report = sampleStatus();
    report.progress = {
      bucket: 'month',
      points: [
        { start: '2025-12-15', end: '2025-12-31', created: 1200, closed: 3, open: 1197 },
        { start: '2026-01-01', end: '2026-01-31', created: 4, closed: 1, open: 1200 },
      ],
    };
    const { container } = renderWithProviders(<ReportView report={report} />);
    await showTable('Progress by month');
    expect(tableText('Progress by month').slice(1)).toEqual([
      ['Dec 2025', 'Dec 2025', '1,200', '3', '1,197'],
      ['Jan 2026', 'Jan 2026', '4', '1', '1,200'],
    ]);
    print('beforeprint');
    const printed = region('Progress by month').querySelector('.report-print-only tbody tr') as HTMLElement;
    expect([...printed.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Dec 2025',
      'Dec 2025',
      '1,200',
      '3',
      '1,197',
    ]);
    print('afterprint');
    expect(container.querySelectorAll('.report-print-only')).toHaveLength(0);
  });

  it('charts the 15 largest projects and says the table has them all', async () => {
    const byProject = Array.from({ length: 20 }, (_, i) => ({
      projectId: `p${i}`,
      title: `Project ${String(i).padStart(2, '0')}`,
      status: 'active' as const,
      tasks: i + 1,
      open: i + 1,
      closed: 0,
      overdue: 0,
      percentClosed: 0,
    }));
    renderWithProviders(<ReportView report={{ ...sampleStatus(), byProject }} />);
    const projects = region('Projects');
    expect(
      await within(projects).findByRole('img', {
        name: 'Stacked bar chart: Projects, 15 rows (the table view lists the numbers)',
      }),
    ).toBeInTheDocument();
    expect(
      within(projects).getByText(
        'The chart shows the 15 projects with the most tasks of 20; the table lists every project.',
      ),
    ).toBeInTheDocument();
    await showTable('Projects');
    expect(tableText('Projects').slice(1)).toHaveLength(20);
  });

  it('says there is no data instead of an empty chart, with no switch', () => {
    renderWithProviders(<ReportView report={{ ...sampleStatus(), progress: { bucket: 'week', points: [] } }} />);
    const progress = region('Progress by week');
    expect(within(progress).getByText(NO_DATA)).toBeInTheDocument();
    expect(within(progress).queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(within(progress).queryByRole('table')).not.toBeInTheDocument();
  });

  it('says every figure is 0 instead of drawing nothing, and the table still shows the zeros', async () => {
    const report = sampleRequests();
    report.openByAge = report.openByAge.map((b) => ({ ...b, count: 0 }));
    renderWithProviders(<ReportView report={report} />);
    expect(
      within(region('Active requests by age')).getByText('Every figure is 0 for these filters'),
    ).toBeInTheDocument();
    await showTable('Active requests by age');
    expect(tableText('Active requests by age').slice(1)).toEqual([
      ['0–7 days', '0'],
      ['8–30 days', '0'],
      ['31–90 days', '0'],
      ['Over 90 days', '0'],
    ]);
  });

  it('leaves the request figures out of the workload when the report has none', async () => {
    renderWithProviders(<ReportView report={sampleWorkload(undefined, false)} />);
    expect(within(region('Summary')).getByText('Unassigned tasks')).toBeInTheDocument();
    expect(screen.queryByText(/requests/i)).not.toBeInTheDocument();
    expect(
      await within(region('Workload by person')).findByRole('img', {
        name: 'Bar chart: Workload by person. Ada Lovelace 7; Carla Consultant 4',
      }),
    ).toBeInTheDocument();
    await showTable('Workload by person');
    expect(tableText('Workload by person')).toEqual([
      ['Person', 'Email', 'Open tasks', 'Overdue tasks', 'Total'],
      ['Ada Lovelace', 'ada@acme.test', '7', '2', '7'],
      ['Carla Consultant', 'consultant@demo.test', '4', '1', '4'],
    ]);
  });

  it('pages a table beyond 50 rows on screen, and prints every row', async () => {
    const people: WorkloadReport['people'] = Array.from({ length: 60 }, (_, i) => ({
      userId: `u${i}`,
      name: `Person ${String(i).padStart(2, '0')}`,
      email: `p${i}@acme.test`,
      staff: false,
      openTasks: 60 - i,
      overdueTasks: 0,
      activeRequests: 0,
      overdueRequests: 0,
      total: 60 - i,
    }));
    renderWithProviders(<ReportView report={{ ...sampleWorkload(), people }} />);
    const workload = region('Workload by person');
    expect(
      await within(workload).findByText('The chart shows the 15 busiest of 60; the table lists everyone.'),
    ).toBeInTheDocument();
    await showTable('Workload by person');
    // the column titles and a page of 50, then a second page
    expect(within(within(workload).getByRole('table')).getAllByRole('row')).toHaveLength(51);
    expect(within(workload).getByRole('listitem', { name: '2' })).toHaveClass('ant-pagination-item');
    print('beforeprint');
    const printed = workload.querySelector('.report-print-only') as HTMLElement;
    expect(printed.querySelectorAll('tbody tr')).toHaveLength(60);
    print('afterprint');
  });
});
