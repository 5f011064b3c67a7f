import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { ApplicableTracker, TaskTrackerDetail } from '@portal/shared/core/practices';
import type { Project } from '@portal/shared/core/projects';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$ } from '@portal/shared/web/events';
import { Route, Routes } from '@portal/shared/web/router';
import {
  apiError,
  button,
  findDialog,
  findOption,
  isClosed,
  makeProject,
  makeTask,
  optionTexts,
  session,
  setupTestServer,
  setupUser,
} from '../../projects/testing/fixtures';
import { TasksTab } from '../../projects/components/tasks-tab';

const tracker = (
  id: string,
  name: string,
  practice: { id: string; name: string },
  extra: Partial<ApplicableTracker> = {},
): ApplicableTracker => ({
  id,
  name,
  description: '',
  practice,
  taskCount: 12,
  controlCount: 4,
  ofProjectPractice: practice.id === 'pr1',
  ...extra,
});
const SOC = { id: 'pr1', name: 'SOC' };
const ISO = { id: 'pr2', name: 'ISO 27001' };

const detail: TaskTrackerDetail = {
  id: 'tt1',
  practiceId: 'pr1',
  name: 'SOC 2 baseline',
  description: '',
  status: 'published',
  taskCount: 4,
  controlCount: 1,
  pointOfFocusCount: 0,
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  practice: { ...SOC, status: 'active' },
  controls: [],
  tasks: [
    {
      id: 'x1',
      referenceId: 'AC-1',
      title: 'Access reviews',
      description: null,
      controls: [],
      subtasks: [{ id: 'x1a', referenceId: 'AC-1.1', title: 'Export user list', description: null, controls: [] }],
    },
    { id: 'x2', referenceId: 'AC-2', title: 'Password policy', description: null, controls: [], subtasks: [] },
    { id: 'x3', referenceId: null, title: 'Vendor review', description: null, controls: [], subtasks: [] },
  ],
};

let trackers: ApplicableTracker[];
let taskRequests: number;
let applied: unknown[];
let applyReply: { status: number; body: unknown } | null;
let imports: string[];
let importReply: { status: number; body: unknown } | null;

const server = setupTestServer(
  http.get('*/api/v1/projects/p1/tasks', () => {
    taskRequests += 1;
    return HttpResponse.json({ results: [makeTask(1)], total: 1, page: 1, pageSize: 25 });
  }),
  http.get('*/api/v1/projects/p1/task-assignees', () => HttpResponse.json({ results: [] })),
  http.get('*/api/v1/projects/p1/task-trackers', () => HttpResponse.json({ results: trackers })),
  http.get('*/api/v1/task-trackers/tt1', () => HttpResponse.json(detail)),
  http.post('*/api/v1/projects/p1/task-trackers/apply', async ({ request }) => {
    applied.push(await request.json());
    const reply = applyReply ?? {
      status: 200,
      body: { rows: 0, tasks: 12, controlsCreated: 4, controlsLinked: 0, pointsOfFocus: 3, practice: SOC },
    };
    return HttpResponse.json(reply.body as object, { status: reply.status });
  }),
  http.post('*/api/v1/projects/p1/tasks/import', async ({ request }) => {
    const form = await request.formData();
    const file = form.get('file') as File;
    imports.push(`${file.name}:${file.size}`);
    const reply = importReply ?? {
      status: 201,
      body: { rows: 3, tasks: 3, controlsCreated: 1, controlsLinked: 0, pointsOfFocus: 2 },
    };
    return HttpResponse.json(reply.body as object, { status: reply.status });
  }),
);

let ue = setupUser();
let toasts: string[];
let unsubscribe: () => void;
beforeEach(() => {
  ue = setupUser();
  trackers = [
    tracker('tt2', 'ISO baseline', ISO),
    tracker('tt1', 'SOC 2 baseline', SOC, { description: 'The controls of a SOC 2 Type II audit.' }),
    tracker('tt3', 'SOC 1 lite', SOC, { taskCount: 1, controlCount: 1 }),
  ];
  taskRequests = 0;
  applied = [];
  applyReply = null;
  imports = [];
  importReply = null;
  toasts = [];
  const subscription = toast$.subscribe((t) => toasts.push(t.summary));
  unsubscribe = () => subscription.unsubscribe();
});
afterEach(() => unsubscribe());

function renderTab(project: Project = makeProject()) {
  return renderWithProviders(
    <Routes>
      <Route path="/v2/projects/:projectId" element={<TasksTab project={project} />} />
    </Routes>,
    { route: '/v2/projects/p1', session },
  );
}

const trackerFile = (name: string, content = 'Task ID,Task Title\nT-1,Review\n') =>
  new NodeFile([content], name, { type: 'text/csv' }) as unknown as File;

/** The dialog's Alert (role alert): a role query walks all of antd's DOM, this does not. */
const alertIn = (dialog: HTMLElement) =>
  waitFor(() => {
    const alert = dialog.querySelector<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('no alert');
    return alert;
  });

async function openDialog(label: string) {
  await screen.findByText('Task 1');
  await ue.click(button(label));
  return findDialog();
}

describe('task tracker actions on the Tasks tab', () => {
  it('offers Apply template to staff who manage projects and Import tasks to the project’s writers', async () => {
    const { unmount } = renderTab();
    await screen.findByText('Task 1');
    expect(button('Apply template')).toBeEnabled();
    expect(button('Import tasks')).toBeEnabled();
    unmount();

    // a client with a role writes to the project but does not manage it
    const second = renderTab(
      makeProject({ permissions: { manage: false, write: true, manageRoster: false }, myRole: 'Client Lead' }),
    );
    await screen.findByText('Task 1');
    expect(screen.queryByText('Apply template')).not.toBeInTheDocument();
    expect(button('Import tasks')).toBeEnabled();
    second.unmount();

    // a reader sees neither
    renderTab(makeProject({ permissions: { manage: false, write: false, manageRoster: false }, myRole: null }));
    await screen.findByText('Task 1');
    expect(screen.queryByText('Apply template')).not.toBeInTheDocument();
    expect(screen.queryByText('Import tasks')).not.toBeInTheDocument();
  });

  it('shows both disabled on a canceled project, saying why', async () => {
    renderTab(makeProject({ status: 'canceled', permissions: { manage: true, write: false, manageRoster: true } }));
    await screen.findByText('Task 1');
    expect(button('Apply template')).toBeDisabled();
    expect(button('Import tasks')).toBeDisabled();
    expect(button('Apply template')).toHaveAccessibleDescription(ERROR_MESSAGES.project_is_canceled);
    expect(button('Import tasks')).toHaveAccessibleDescription(ERROR_MESSAGES.project_is_canceled);
  });

  it('applies a template: the project’s practice first, description and counts, a toast, and the list reloads', async () => {
    renderTab();
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await waitFor(() =>
      expect(optionTexts()).toEqual(['SOC 2 baseline — SOC', 'SOC 1 lite — SOC', 'ISO baseline — ISO 27001']),
    );
    expect(screen.getByText("SOC (this project's practice)")).toBeInTheDocument();
    await ue.click(await findOption('SOC 2 baseline — SOC'));
    expect(within(dialog).getByText('The controls of a SOC 2 Type II audit.')).toBeInTheDocument();
    expect(within(dialog).getByText('12 tasks · 4 controls')).toBeInTheDocument();
    const before = taskRequests;

    await ue.click(button('Apply', dialog));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(applied).toEqual([{ practiceId: 'pr1', taskTrackerId: 'tt1' }]);
    expect(toasts).toContain('Applied SOC 2 baseline: 12 tasks created');
    await waitFor(() => expect(taskRequests).toBeGreaterThan(before));
  });

  it('applies the chosen tasks only: a subtask brings its parent, a parent takes its subtasks away', async () => {
    renderTab();
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await ue.click(await findOption('SOC 2 baseline — SOC'));
    await ue.click(within(dialog).getByLabelText('Choose tasks'));
    const parent = await within(dialog).findByLabelText('AC-1 Access reviews');
    const sub = within(dialog).getByLabelText('AC-1.1 Export user list');
    expect(within(dialog).getByText('4 of 4 tasks chosen')).toBeInTheDocument();

    await ue.click(parent);
    expect(parent).not.toBeChecked();
    expect(sub).not.toBeChecked();
    await ue.click(sub);
    expect(parent).toBeChecked();
    await ue.click(within(dialog).getByLabelText('Vendor review'));
    expect(within(dialog).getByText('3 of 4 tasks chosen')).toBeInTheDocument();

    await ue.click(button('Apply', dialog));
    await waitFor(() => expect(applied).toHaveLength(1));
    expect(applied[0]).toEqual({ practiceId: 'pr1', taskTrackerId: 'tt1', taskIds: ['x1', 'x1a', 'x2'] });
  });

  it('keeps the dialog open with the catalogue’s text when the api refuses, and says which Task IDs the project has already', async () => {
    applyReply = apiError(409, 'task_tracker_in_wrong_status', 'The template is not published');
    renderTab();
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await ue.click(await findOption('SOC 1 lite — SOC'));
    await ue.click(button('Apply', dialog));
    expect(await alertIn(dialog)).toHaveTextContent('Invalid status.');

    const taken = (id: string, title: string) => ({
      field: 'taskTrackerId',
      message: `Template task "${title}": Task ID ${id} is already the Task ID of "${title}" in this project`,
    });
    applyReply = apiError(409, 'task_reference_id_already_exist_on_project', 'Conflict', [
      taken('AC-1', 'Access reviews'),
      taken('AC-2', 'Password policy'),
    ]);
    await ue.click(button('Apply', dialog));
    await waitFor(async () =>
      expect(await alertIn(dialog)).toHaveTextContent(
        'Some Task IDs of this template already exist in the project: AC-1, AC-2',
      ),
    );
    const alert = await alertIn(dialog);
    // a conflict with the project, not the file's "must be unique" of an import
    expect(alert).not.toHaveTextContent('Task IDs must be unique or null');
    expect(alert).toHaveTextContent(
      'Template task "Access reviews": Task ID AC-1 is already the Task ID of "Access reviews" in this project',
    );
    expect(isClosed(dialog)).toBe(false);
    expect(toasts).toEqual([]);
  });

  it('does not offer Apply for a template of another practice once the project has tasks, and says why', async () => {
    renderTab(makeProject({ tasksTotal: 30 }));
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await ue.click(await findOption('ISO baseline — ISO 27001'));
    expect(button('Apply', dialog)).toBeDisabled();
    expect(button('Apply', dialog)).toHaveAccessibleDescription(
      expect.stringContaining(ERROR_MESSAGES.practices_can_not_be_changed_when_project_has_tasks),
    );
    await ue.click(within(dialog).getByLabelText('Template'));
    await ue.click(await findOption('SOC 2 baseline — SOC'));
    expect(button('Apply', dialog)).toBeEnabled();
    expect(applied).toEqual([]);
  });

  it('offers another practice’s template to a project without tasks (it takes that practice)', async () => {
    renderTab(makeProject({ tasksTotal: 0 }));
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await ue.click(await findOption('ISO baseline — ISO 27001'));
    await ue.click(button('Apply', dialog));
    await waitFor(() => expect(applied).toEqual([{ practiceId: 'pr2', taskTrackerId: 'tt2' }]));
  });

  it('finds tasks by Task ID or title in the picker, and renders only the rows in view of a long template', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      id: `m${i}`,
      referenceId: `M-${i}`,
      title: `Task number ${i}`,
      description: null,
      controls: [],
      subtasks: [],
    }));
    server.use(
      http.get('*/api/v1/task-trackers/tt1', () =>
        HttpResponse.json({ ...detail, taskCount: many.length, tasks: [...detail.tasks, ...many] }),
      ),
    );
    renderTab();
    const dialog = await openDialog('Apply template');
    await ue.click(await within(dialog).findByLabelText('Template'));
    await ue.click(await findOption('SOC 2 baseline — SOC'));
    await ue.click(within(dialog).getByLabelText('Choose tasks'));
    await within(dialog).findByLabelText('AC-1 Access reviews');
    expect(within(dialog).getByText('20004 of 20004 tasks chosen')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('treeitem').length).toBeLessThan(100);

    const search = within(dialog).getByLabelText('Search tasks');
    await ue.type(search, 'password');
    await waitFor(() => expect(within(dialog).queryByLabelText('AC-1 Access reviews')).not.toBeInTheDocument());
    expect(within(dialog).getByLabelText('AC-2 Password policy')).toBeChecked();
    await ue.clear(search);
    await ue.type(search, 'ac-1.1');
    // a matching subtask shows under its parent
    expect(await within(dialog).findByLabelText('AC-1.1 Export user list')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('AC-1 Access reviews')).toBeInTheDocument();
    await ue.clear(search);
    await ue.type(search, 'M-19999');
    await ue.click(await within(dialog).findByLabelText('M-19999 Task number 19999'));
    expect(within(dialog).getByText('20003 of 20004 tasks chosen')).toBeInTheDocument();
    await ue.clear(search);
    await ue.type(search, 'nothing like it');
    expect(await within(dialog).findByText('No task matches “nothing like it”.')).toBeInTheDocument();
  });

  it('says when no template is published', async () => {
    trackers = [];
    renderTab();
    const dialog = await openDialog('Apply template');
    expect(await within(dialog).findByText('No published templates')).toBeInTheDocument();
    expect(button('Apply', dialog)).toBeDisabled();
  });

  it('refuses a file that is not .csv or .xlsx before sending it', async () => {
    renderTab();
    const dialog = await openDialog('Import tasks');
    expect(within(dialog).getByText('Download CSV template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/task-trackers/file-template?format=csv',
    );
    expect(within(dialog).getByText('Download XLSX template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/task-trackers/file-template?format=xlsx',
    );
    const input = within(dialog).getByLabelText('Task tracker file');
    expect(input).toHaveAttribute('accept', '.csv,.xlsx');
    // the picker's "All files" lets any name through
    fireEvent.change(input, { target: { files: [trackerFile('tracker.txt')] } });
    expect(await within(dialog).findByText(ERROR_MESSAGES.no_csv_file)).toBeInTheDocument();
    await ue.click(button('Import', dialog));
    expect(within(dialog).getByText(ERROR_MESSAGES.no_csv_file)).toBeInTheDocument();
    expect(imports).toEqual([]);
  });

  it('imports a file: sends it, says how many tasks came in, closes and reloads the list', async () => {
    renderTab();
    const dialog = await openDialog('Import tasks');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), trackerFile('tracker.csv'));
    expect(within(dialog).getByText('tracker.csv')).toBeInTheDocument();
    const before = taskRequests;
    await ue.click(button('Import', dialog));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(imports).toEqual(['tracker.csv:30']);
    expect(toasts).toContain('Imported 3 tasks');
    await waitFor(() => expect(taskRequests).toBeGreaterThan(before));
  });

  it('lists the rows a refused import names, at most 10, and keeps the dialog open', async () => {
    const details = Array.from({ length: 12 }, (_, i) => ({
      field: 'file',
      message: `Rows ${i + 2} and ${i + 20}, Task ID: T-${i} appears twice`,
    }));
    importReply = apiError(400, 'task_reference_id_already_exist_on_project', details[0].message, details);
    renderTab();
    const dialog = await openDialog('Import tasks');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), trackerFile('tracker.xlsx'));
    await ue.click(button('Import', dialog));
    const alert = await alertIn(dialog);
    expect(alert).toHaveTextContent('Task IDs must be unique or null');
    const rows = [...within(alert).getByLabelText('Problems').querySelectorAll('li')].map((li) => li.textContent);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toBe('Rows 2 and 20, Task ID: T-0 appears twice');
    expect(alert).toHaveTextContent('and 2 more');
    expect(isClosed(dialog)).toBe(false);
    expect(toasts).toEqual([]);
  });

  it('cancels an import while it is sent', async () => {
    server.use(http.post('*/api/v1/projects/p1/tasks/import', () => new Promise<never>(() => undefined)));
    renderTab();
    const dialog = await openDialog('Import tasks');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), trackerFile('tracker.csv'));
    await ue.click(button('Import', dialog));
    const status = await within(dialog).findByRole('status');
    expect(status).toHaveTextContent(/Uploading… \d+%|Importing rows…/);
    // before the whole file is sent it is a cancel; after, the dialog only stops waiting
    const late = /Importing rows/.test(status.textContent ?? '');
    await ue.click(button(late ? 'Stop waiting' : 'Cancel', dialog));
    expect(await within(dialog).findByText(late ? /Stopped waiting/ : /canceled/)).toBeInTheDocument();
    expect(within(dialog).getByText('tracker.csv')).toBeInTheDocument();
    await waitFor(() => expect(button('Import', dialog)).toBeEnabled());
  });
});
