import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { formatDateTime } from '@portal/shared/core/dates';
import { localDay } from '@portal/shared/core/requests';
import type { Report } from '@portal/shared/core/reports';
import { button, setupUser } from '@portal/shared/testing';
import * as download from '@portal/shared/web/download';
import { sessionActions } from '@portal/shared/web/session';
import { sampleMeta, sampleWorkload } from '../../../testing/sample-reports';
import { addDays } from '../model/report-state';
import {
  address,
  apiError,
  generatedAtOfCall,
  renderReportsAt,
  setupReportsApi,
  staffSession,
} from '../testing/reports-api';

// The charts and tables have their own tests: here, which report the page was given.
jest.mock('../../../components/report-views/report-view', () => ({
  ReportView: function ReportViewStub({ report }: { report: Report }) {
    const { project, from, to } = report.meta;
    return (
      <p data-testid="report-view">{`${report.kind} report of ${project?.title ?? 'all projects'}, ${from ?? 'start'} to ${to ?? 'now'}`}</p>
    );
  },
}));

const { api, server } = setupReportsApi();
const today = localDay();

const shown = () => screen.findByTestId('report-view');
/** The text of the report shown, once there is one. */
const shownText = async () => (await shown()).textContent;
const tab = (name: string) =>
  screen.getByText(name, { selector: '[role="tab"], [role="tab"] *' }).closest('[role="tab"]') as HTMLElement;
const projectSelect = () => screen.getByLabelText('Project');
const selectedProject = () => projectSelect().closest('.ant-select')?.querySelector('.ant-select-content')?.textContent;

/** The browser's part of a download, stubbed: the anchors clicked are the files saved. */
function mockBrowserDownloads() {
  const urls = URL as unknown as { createObjectURL?: (b: Blob) => string; revokeObjectURL?: (u: string) => void };
  const [create, revoke] = [urls.createObjectURL, urls.revokeObjectURL];
  urls.createObjectURL = () => 'blob:report';
  urls.revokeObjectURL = () => undefined;
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  const restore = () => {
    urls.createObjectURL = create;
    urls.revokeObjectURL = revoke;
    click.mockRestore();
  };
  return { click, restore };
}

/** The names the files were saved under, in order. */
const savedNames = (click: jest.SpyInstance) => (click.mock.contexts as HTMLAnchorElement[]).map((a) => a.download);

describe('the reports page', () => {
  it('shows a tab per report of the options, the first open, with what its figures cover', async () => {
    renderReportsAt('/reports');
    expect(await shownText()).toBe('status report of all projects, start to now');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Project status',
      'Requests',
      'Controls',
      'Team workload',
    ]);
    expect(tab('Project status')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Tasks created at any time, all projects')).toBeInTheDocument();
    expect(screen.getByText('Reports', { selector: 'h1' })).toBeInTheDocument();
    expect(api.reportCalls).toEqual([`status?today=${today}`]);
  });

  it('offers only the reports the caller has, and says so when there is none', async () => {
    api.options = { ...api.options, kinds: ['requests', 'workload'] };
    const { unmount } = renderReportsAt('/reports?report=status');
    expect(await shownText()).toBe('requests report of all projects, start to now');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Requests', 'Team workload']);
    unmount();

    api.options = { ...api.options, kinds: [] };
    api.reportCalls = [];
    renderReportsAt('/reports');
    expect(await screen.findByText('No reports are available to you in this company.')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Project')).not.toBeInTheDocument();
    for (const name of ['Download CSV', 'Download XLSX', 'Download PDF']) expect(button(name)).toBeDisabled();
    expect(api.reportCalls).toEqual([]);
  });

  it('reads the report and the filters from the address', async () => {
    renderReportsAt('/reports?report=requests&project=p2&from=2026-01-01&to=2026-03-31');
    expect(await shownText()).toBe('requests report of Vendor risk review, 2026-01-01 to 2026-03-31');
    expect(tab('Requests')).toHaveAttribute('aria-selected', 'true');
    expect(selectedProject()).toBe('Vendor risk review');
    expect(screen.getByPlaceholderText('From')).toHaveValue('1/1/2026');
    expect(screen.getByPlaceholderText('To')).toHaveValue('3/31/2026');
    expect(
      screen.getByText('Requests visible to you created from 1/1/2026 to 3/31/2026, Vendor risk review'),
    ).toBeInTheDocument();
    expect(api.reportCalls).toEqual([`requests?projectId=p2&from=2026-01-01&to=2026-03-31&today=${today}`]);
  });

  it('falls back to the defaults for values of the address it cannot use', async () => {
    renderReportsAt('/reports?report=risks&from=2026-05-01&to=2026-04-01');
    expect(await shownText()).toBe('status report of all projects, start to now');
    expect(tab('Project status')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByPlaceholderText('From')).toHaveValue('');
    expect(api.reportCalls).toEqual([`status?today=${today}`]);
  });

  it('puts the chosen report and project in the address, and Back restores them', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    await shown();
    await user.click(tab('Controls'));
    await waitFor(() => expect(address()).toBe('?report=controls'));
    expect(await screen.findByText('controls report of all projects, start to now')).toBeInTheDocument();
    expect(
      screen.getByText('Controls and their evidence, all projects. As of today; the period does not apply.'),
    ).toBeInTheDocument();

    await user.click(projectSelect());
    await user.click(await screen.findByText('SOC 2 Type II', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(address()).toBe('?report=controls&project=p1'));
    expect(await screen.findByText('controls report of SOC 2 Type II, start to now')).toBeInTheDocument();
    expect(api.reportCalls).toEqual([
      `status?today=${today}`,
      `controls?today=${today}`,
      `controls?projectId=p1&today=${today}`,
    ]);

    await user.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('?report=controls'));
    await waitFor(() => expect(selectedProject()).toBe('All projects'));
    expect(await screen.findByText('controls report of all projects, start to now')).toBeInTheDocument();
  });

  it('searches the projects by title', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    await shown();
    await user.click(projectSelect());
    await user.type(projectSelect(), 'vendor');
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent)).toEqual([
        'Vendor risk review',
      ]),
    );
  });

  it('sets the period from a preset, marks it, and clears it with "All time"', async () => {
    const user = setupUser();
    renderReportsAt('/reports?report=requests');
    await shown();
    expect(button('All time')).toHaveAttribute('aria-pressed', 'true');
    await user.click(button('Last 30 days'));
    const from = addDays(today, -29);
    await waitFor(() => expect(address()).toBe(`?report=requests&from=${from}&to=${today}`));
    expect(await screen.findByText(`requests report of all projects, ${from} to ${today}`)).toBeInTheDocument();
    expect(button('Last 30 days')).toHaveAttribute('aria-pressed', 'true');
    expect(button('All time')).toHaveAttribute('aria-pressed', 'false');

    await user.click(button('This year'));
    await waitFor(() => expect(address()).toBe(`?report=requests&from=${today.slice(0, 4)}-01-01&to=${today}`));
    await user.click(button('Last 90 days'));
    await waitFor(() => expect(address()).toBe(`?report=requests&from=${addDays(today, -89)}&to=${today}`));
    await user.click(button('All time'));
    await waitFor(() => expect(address()).toBe('?report=requests'));
    await waitFor(() =>
      expect(api.reportCalls).toEqual([
        `requests?today=${today}`,
        `requests?from=${from}&to=${today}&today=${today}`,
        `requests?from=${today.slice(0, 4)}-01-01&to=${today}&today=${today}`,
        `requests?from=${addDays(today, -89)}&to=${today}&today=${today}`,
      ]),
    );
  });

  it('takes a period typed in the date range', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    await shown();
    expect(screen.getAllByLabelText('Created between')).toEqual([
      screen.getByPlaceholderText('From'),
      screen.getByPlaceholderText('To'),
    ]);
    await user.click(screen.getByPlaceholderText('From'));
    await user.type(screen.getByPlaceholderText('From'), '2026-02-01{Enter}');
    await user.type(screen.getByPlaceholderText('To'), '2026-02-28{Enter}');
    await waitFor(() => expect(address()).toBe('?from=2026-02-01&to=2026-02-28'));
    expect(await screen.findByText('status report of all projects, 2026-02-01 to 2026-02-28')).toBeInTheDocument();
  });

  it('keeps the last numbers, dimmed, while other filters load', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    expect(await shownText()).toBe('status report of all projects, start to now');
    let release = () => undefined as void;
    api.hold = new Promise<void>((resolve) => (release = resolve));
    await user.click(button('Last 90 days'));
    await waitFor(() => expect(api.reportCalls).toHaveLength(2));
    const old = screen.getByText('status report of all projects, start to now');
    expect(old.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    act(() => release());
    expect(
      await screen.findByText(`status report of all projects, ${addDays(today, -89)} to ${today}`),
    ).toBeInTheDocument();
    expect(screen.getByTestId('report-view').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'false');
  });

  it('says when the figures were computed, and counts again on "Refresh"', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    await shown();
    expect(screen.getByText(`Figures as of ${formatDateTime(generatedAtOfCall(1))}`)).toBeInTheDocument();
    let release = () => undefined as void;
    api.hold = new Promise<void>((resolve) => (release = resolve));
    await user.click(button('Refresh'));
    await waitFor(() => expect(api.reportCalls).toEqual([`status?today=${today}`, `status?today=${today}`]));
    await waitFor(() => expect(button('Refresh')).toHaveAttribute('aria-busy', 'true'));
    expect(screen.getByTestId('report-view').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    act(() => release());
    expect(await screen.findByText(`Figures as of ${formatDateTime(generatedAtOfCall(2))}`)).toBeInTheDocument();
    expect(button('Refresh')).not.toHaveAttribute('aria-busy');
  });

  it('asks again for a report older than 30 seconds when its tab is opened again, not for a newer one', async () => {
    const user = setupUser();
    renderReportsAt('/reports');
    await shown();
    await user.click(tab('Requests'));
    expect(await screen.findByText('requests report of all projects, start to now')).toBeInTheDocument();
    await user.click(tab('Project status'));
    expect(await screen.findByText('status report of all projects, start to now')).toBeInTheDocument();
    expect(api.reportCalls).toEqual([`status?today=${today}`, `requests?today=${today}`]);

    // the clock only (RTK reads `new Date()`), 31 s on: the timers stay real
    jest.useFakeTimers({
      now: Date.now() + 31_000,
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    try {
      await user.click(tab('Requests'));
      await waitFor(() =>
        expect(api.reportCalls).toEqual([
          `status?today=${today}`,
          `requests?today=${today}`,
          `requests?today=${today}`,
        ]),
      );
      expect(await screen.findByText(`Figures as of ${formatDateTime(generatedAtOfCall(3))}`)).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('leaves the period out of the controls and workload reports, but not out of their files', async () => {
    const { click, restore } = mockBrowserDownloads();
    try {
      const user = setupUser();
      renderReportsAt('/reports?report=controls&from=2026-01-01&to=2026-03-31');
      expect(await shownText()).toBe('controls report of all projects, start to now');
      await user.click(button('Last 30 days'));
      const from = addDays(today, -29);
      await waitFor(() => expect(address()).toBe(`?report=controls&from=${from}&to=${today}`));
      await user.click(tab('Team workload'));
      expect(await screen.findByText('workload report of all projects, start to now')).toBeInTheDocument();
      expect(api.reportCalls).toEqual([`controls?today=${today}`, `workload?today=${today}`]);

      await user.click(button('Download CSV'));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      expect(api.fileCalls).toEqual([`workload/export?format=csv&from=${from}&to=${today}&today=${today}`]);
    } finally {
      restore();
    }
  });

  it('says whether the workload counts requests as the report does', async () => {
    server.use(
      http.get('*/api/v1/companies/c1/reports/workload', () => HttpResponse.json(sampleWorkload(sampleMeta(), false))),
    );
    renderReportsAt('/reports?report=workload');
    expect(
      await screen.findByText('Open tasks by person, all projects. As of today; the period does not apply.'),
    ).toBeInTheDocument();
  });

  it('names the filters as a group', async () => {
    renderReportsAt('/reports');
    await shown();
    expect(screen.getByLabelText('Report filters')).toHaveAttribute('role', 'group');
  });

  it("says why a report failed with the api's message, and tries again", async () => {
    server.use(
      http.get(
        '*/api/v1/companies/c1/reports/status',
        () => HttpResponse.json(apiError('internal_error', 'The database is busy'), { status: 500 }),
        { once: true },
      ),
    );
    const user = setupUser();
    renderReportsAt('/reports');
    expect(await screen.findByText('The report could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is busy')).toBeInTheDocument();
    await user.click(button('Try again'));
    expect(await shownText()).toBe('status report of all projects, start to now');
    expect(screen.queryByText('The report could not be loaded')).not.toBeInTheDocument();
  });

  it('offers a retry when the reports the caller has could not be loaded', async () => {
    server.use(
      http.get(
        '*/api/v1/companies/c1/reports/options',
        () => HttpResponse.json(apiError('internal_error', 'Something went wrong'), { status: 500 }),
        { once: true },
      ),
    );
    const user = setupUser();
    renderReportsAt('/reports');
    expect(await screen.findByText('The reports could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(api.reportCalls).toEqual([]);
    await user.click(button('Try again'));
    expect(await shownText()).toBe('status report of all projects, start to now');
  });

  it('shows all projects, and says so, when the api no longer finds the project of the link', async () => {
    // the options still list p2, the api has lost it since
    server.use(
      http.get('*/api/v1/companies/c1/reports/:kind', ({ request }) =>
        new URL(request.url).searchParams.get('projectId') === 'p2'
          ? HttpResponse.json(apiError('project_not_found', 'Project not found'), { status: 404 })
          : undefined,
      ),
    );
    renderReportsAt('/reports?report=workload&project=p2');
    expect(
      await screen.findByText('The project of the link is not available to you: the reports show all projects.'),
    ).toBeInTheDocument();
    expect(await shownText()).toBe('workload report of all projects, start to now');
    expect(address()).toBe('?report=workload');
    expect(selectedProject()).toBe('All projects');
  });

  it('drops a project of the link that the options do not list, without asking for it', async () => {
    renderReportsAt('/reports?report=status&project=p9&from=2026-01-01');
    expect(await shownText()).toBe('status report of all projects, 2026-01-01 to now');
    expect(
      screen.getByText('The project of the link is not available to you: the reports show all projects.'),
    ).toBeInTheDocument();
    expect(address()).toBe('?report=status&from=2026-01-01');
    expect(api.reportCalls).toEqual([`status?from=2026-01-01&today=${today}`]);
  });

  it('downloads the report shown as CSV or XLSX and every report as PDF, for the filters shown, one at a time', async () => {
    const { click, restore } = mockBrowserDownloads();
    try {
      const user = setupUser();
      renderReportsAt('/reports?report=requests&project=p1&from=2026-01-01&to=2026-03-31');
      await shown();
      const filters = `projectId=p1&from=2026-01-01&to=2026-03-31&today=${today}`;

      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      server.use(
        http.get(
          '*/api/v1/companies/c1/reports/:kind/export',
          async () => {
            await held;
          },
          { once: true },
        ),
      );
      await user.click(button('Download CSV'));
      await waitFor(() => expect(button('Download XLSX')).toBeDisabled());
      expect(button('Download PDF')).toBeDisabled();
      expect(button('Download CSV')).toHaveAttribute('aria-busy', 'true');
      act(() => release());
      await waitFor(() => expect(api.fileCalls).toEqual([`requests/export?format=csv&${filters}`]));
      await waitFor(() => expect(button('Download XLSX')).toBeEnabled());

      await user.click(button('Download XLSX'));
      await waitFor(() => expect(api.fileCalls).toHaveLength(2));
      await waitFor(() => expect(button('Download PDF')).toBeEnabled());
      await user.click(button('Download PDF'));
      await waitFor(() =>
        expect(api.fileCalls).toEqual([
          `requests/export?format=csv&${filters}`,
          `requests/export?format=xlsx&${filters}`,
          `pdf?${filters}`,
        ]),
      );
      await waitFor(() => expect(click).toHaveBeenCalledTimes(3));
      // the api's names, and for the PDF (no name given) the name the api gives it
      expect(savedNames(click)).toEqual([
        'requests-from-the-api.csv',
        'requests-from-the-api.xlsx',
        `report-acme-corp-${today}.pdf`,
      ]);

      server.use(
        http.get(
          '*/api/v1/companies/c1/reports/pdf',
          () => HttpResponse.json(apiError('module_access_denied', 'No'), { status: 403 }),
          { once: true },
        ),
      );
      await waitFor(() => expect(button('Download PDF')).toBeEnabled());
      await user.click(button('Download PDF'));
      expect(await screen.findByText('The download failed. Try again.')).toBeInTheDocument();
      expect(click).toHaveBeenCalledTimes(3);
    } finally {
      restore();
    }
  });

  it('says a download failed when its code could not be loaded', async () => {
    const failing = jest.spyOn(download, 'downloadFromApi').mockRejectedValueOnce(new Error('Loading chunk 12 failed'));
    try {
      const user = setupUser();
      renderReportsAt('/reports');
      await shown();
      await user.click(button('Download CSV'));
      expect(await screen.findByText('The download failed. Try again.')).toBeInTheDocument();
      expect(button('Download CSV')).toBeEnabled();
      expect(failing).toHaveBeenCalledWith(
        `/companies/c1/reports/status/export?format=csv&today=${today}`,
        `status-report-acme-corp-${today}.csv`,
        expect.anything(),
      );
    } finally {
      failing.mockRestore();
    }
  });

  it('prints the page', async () => {
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    try {
      const user = setupUser();
      renderReportsAt('/reports');
      await shown();
      await user.click(button('Print'));
      expect(print).toHaveBeenCalledTimes(1);
    } finally {
      print.mockRestore();
    }
  });

  it('says why there are no reports without a company or without the reports module, and calls nothing', async () => {
    const { unmount } = renderReportsAt('/reports', { ...staffSession, selectedCompanyId: null, company: null });
    expect(await screen.findByText('No company selected')).toBeInTheDocument();
    unmount();
    renderReportsAt('/reports', { ...staffSession, selectedCompanyId: 'c2', company: null });
    expect(await screen.findByText('Reports are not available')).toBeInTheDocument();
    expect(screen.getByText('Your access to Globex Inc does not include the reports module.')).toBeInTheDocument();
    expect(screen.queryByText('Download CSV')).not.toBeInTheDocument();
    expect(api.reportCalls).toEqual([]);
  });

  it("drops the old company's project from the address when another company is chosen", async () => {
    const user = setupUser();
    const { store } = renderReportsAt('/reports?report=requests&project=p1&from=2026-01-01');
    expect(await shownText()).toBe('requests report of SOC 2 Type II, 2026-01-01 to now');
    act(() => {
      store.dispatch(sessionActions.companySelected('c3'));
    });
    await waitFor(() => expect(address()).toBe('?report=requests&from=2026-01-01'));
    expect(await screen.findByText('requests report of all projects, 2026-01-01 to now')).toBeInTheDocument();
    expect(api.reportCalls).toEqual([
      `requests?projectId=p1&from=2026-01-01&today=${today}`,
      `requests?from=2026-01-01&today=${today}`,
    ]);
    // the address was replaced: Back does not bring the old project back
    await user.click(button('Browser back'));
    expect(address()).toBe('?report=requests&from=2026-01-01');
    expect(
      within(screen.getByTestId('reports')).queryByText(
        'The project of the link is not available to you: the reports show all projects.',
      ),
    ).not.toBeInTheDocument();
  });
});
