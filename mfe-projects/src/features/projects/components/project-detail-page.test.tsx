import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ProjectStatus } from '@portal/shared/core/projects';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import {
  AddressQuery,
  address,
  apiError,
  BackButton,
  button,
  findDialog,
  findHeading,
  findOption,
  isClosed,
  makeControl,
  makeProject,
  makeTask,
  member,
  optionTexts,
  person,
  session,
  setupTestServer,
  setupUser,
} from '../testing/fixtures';
import { ProjectDetailPage } from './project-detail-page';

const allTasks = Array.from({ length: 30 }, (_, i) => makeTask(i + 1));
const allControls = Array.from({ length: 30 }, (_, i) => makeControl(i + 1));
const ann = person('u2', 'Ann');
const zoe = person('u7', 'Zoe', 'Client');

let taskRequests: string[];
let controlRequests: string[];
let posted: unknown[];
let createReplies: { status: number; body: unknown }[];
let projectStatus: ProjectStatus;

const page = <T,>(items: T[], url: URL) => {
  const n = Number(url.searchParams.get('page') ?? 1);
  const size = Number(url.searchParams.get('pageSize') ?? 25);
  return { results: items.slice((n - 1) * size, n * size), total: items.length, page: n, pageSize: size };
};

setupTestServer(
  http.get('*/api/v1/projects/p1', () => HttpResponse.json(makeProject({ status: projectStatus }))),
  http.post('*/api/v1/projects/p1/status', async ({ request }) => {
    projectStatus = ((await request.json()) as { status: ProjectStatus }).status;
    return HttpResponse.json(makeProject({ status: projectStatus }));
  }),
  http.get('*/api/v1/practices', () => HttpResponse.json({ results: [{ id: 'pr1', name: 'SOC', status: 'active' }] })),
  http.get('*/api/v1/projects/p1/users', () => HttpResponse.json({ results: [member(ann, 'Client Lead')] })),
  // assigned to tasks without being on the roster: the filter offers them all the same
  http.get('*/api/v1/projects/p1/task-assignees', () => HttpResponse.json({ results: [ann, zoe] })),
  http.get('*/api/v1/projects/p1/assignees', () => HttpResponse.json({ results: [ann] })),
  http.get('*/api/v1/projects/p1/tasks', ({ request }) => {
    const url = new URL(request.url);
    taskRequests.push(decodeURIComponent(url.search));
    return HttpResponse.json(page(allTasks, url));
  }),
  http.get('*/api/v1/projects/p1/controls', ({ request }) => {
    const url = new URL(request.url);
    controlRequests.push(decodeURIComponent(url.search));
    return HttpResponse.json(page(allControls, url));
  }),
  http.post('*/api/v1/projects/p1/tasks', async ({ request }) => {
    posted.push(await request.json());
    const reply = createReplies.shift() ?? { status: 201, body: { ...makeTask(99), title: 'Created' } };
    return HttpResponse.json(reply.body as object, { status: reply.status });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  taskRequests = [];
  controlRequests = [];
  posted = [];
  createReplies = [];
  projectStatus = 'active';
});

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route
        path="/v2/projects/:projectId"
        element={
          <>
            <ProjectDetailPage />
            <AddressQuery />
            <BackButton />
          </>
        }
      />
    </Routes>,
    { route, session },
  );

const tab = (name: string) =>
  screen.getByText(name, { selector: '[role="tab"], [role="tab"] *' }).closest('[role="tab"]') as HTMLElement;

describe('project detail', () => {
  it('opens the tab and page named by the address, and pushes tab and page changes to it', async () => {
    renderAt('/v2/projects/p1?view=controls&controlsPage=2&folderId=f9');
    expect(await findHeading('SOC 2 Type II 2026')).toBeInTheDocument();
    expect(await screen.findByText('CC6.26')).toBeInTheDocument();
    expect(tab('Controls')).toHaveAttribute('aria-selected', 'true');
    expect(controlRequests).toEqual(['?page=2&pageSize=25']);
    expect(taskRequests).toEqual([]);

    // another tab: its first page, every other parameter kept
    await ue.click(tab('Tasks'));
    expect(await screen.findByText('Task 1')).toBeInTheDocument();
    expect(address()).toBe('?controlsPage=2&folderId=f9');
    expect(taskRequests).toEqual(['?page=1&pageSize=25']);

    await ue.click(screen.getByTitle('2'));
    expect(await screen.findByText('Task 26')).toBeInTheDocument();
    expect(address()).toBe('?controlsPage=2&folderId=f9&tasksPage=2');
    expect(taskRequests).toEqual(['?page=1&pageSize=25', '?page=2&pageSize=25']);

    // back restores the page, then the tab and its page
    await ue.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('?controlsPage=2&folderId=f9'));
    expect(await screen.findByText('Task 1')).toBeInTheDocument();
    await ue.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('?view=controls&controlsPage=2&folderId=f9'));
    expect(await screen.findByText('CC6.26')).toBeInTheDocument();
    expect(tab('Controls')).toHaveAttribute('aria-selected', 'true');
  });

  it('creates a task: posts the body, keeps the modal open with the api’s field errors, then closes', async () => {
    createReplies = [
      apiError(400, 'validation_failed', 'Invalid field: assigneeIds', [
        { field: 'assigneeIds.0', message: 'assigneeIds must name members of the project' },
      ]),
      apiError(409, 'task_reference_id_already_exist_on_project', 'Task IDs must be unique or null'),
    ];
    renderAt('/v2/projects/p1');
    await screen.findByText('Task 1');
    await ue.click(button('New task'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Title'), 'Review access');
    await ue.type(within(dialog).getByLabelText('Task ID'), 'CC-01');
    fireEvent.change(within(dialog).getByLabelText('Due date'), { target: { value: '2026-05-31' } });
    await ue.click(within(dialog).getByLabelText('Assignees'));
    await ue.click(await findOption('Ann Lee (ann@acme.test)'));
    // Enter in a field submits the form
    await ue.type(within(dialog).getByLabelText('Title'), '{Enter}');

    expect(await within(dialog).findByText('Must name members of the project')).toBeInTheDocument();
    expect(posted).toEqual([
      { title: 'Review access', status: 'OPEN', referenceId: 'CC-01', dueDate: '2026-05-31', assigneeIds: ['u2'] },
    ]);

    // a duplicate Task ID (409, no details) marks the Task ID field; the modal stays open
    await ue.click(button('Create task', dialog));
    expect(await within(dialog).findByText('Task IDs must be unique or null')).toBeInTheDocument();
    expect(posted).toHaveLength(2);

    const taskId = within(dialog).getByLabelText('Task ID');
    await ue.clear(taskId);
    await ue.type(taskId, 'CC-77');
    await ue.click(button('Create task', dialog));
    await waitFor(() => expect(posted).toHaveLength(3));
    expect(posted[2]).toMatchObject({ referenceId: 'CC-77' });
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    // the list follows the new task
    await waitFor(() => expect(taskRequests.length).toBeGreaterThan(1));
  });

  it('filters by whoever the tasks are assigned to, and names an addressed id that is not among them', async () => {
    renderAt('/v2/projects/p1?taskAssignee=u-gone');
    await screen.findByText('Task 1');
    const filter = screen.getByLabelText('Filter by assignee').closest('.ant-select') as HTMLElement;
    await waitFor(() => expect(within(filter).getByTitle('Unknown assignee')).toBeInTheDocument());
    expect(filter).not.toHaveTextContent('u-gone');
    await ue.click(screen.getByLabelText('Filter by assignee'));
    await waitFor(() => expect(optionTexts()).toEqual(['Unassigned', 'Ann Lee', 'Zoe Client', 'Unknown assignee']));
    await ue.click(await findOption('Zoe Client'));
    await waitFor(() => expect(address()).toBe('?taskAssignee=u7'));
    await waitFor(() => expect(taskRequests).toContain('?page=1&pageSize=25&assigneeId=u7'));
  });

  it('reloads the tasks after the project’s status changes (what may be done to them follows it)', async () => {
    renderAt('/v2/projects/p1');
    await screen.findByText('Task 1');
    expect(taskRequests).toHaveLength(1);
    await ue.click(button('Put on hold'));
    await waitFor(() => expect(projectStatus).toBe('on_hold'));
    await waitFor(() => expect(taskRequests).toHaveLength(2));
  });

  it('does not offer a practice change once the project has tasks', async () => {
    renderAt('/v2/projects/p1');
    await screen.findByText('Task 1');
    await ue.click(button('Edit'));
    const dialog = await findDialog();
    expect(within(dialog).getByLabelText('Practice')).toBeDisabled();
    expect(within(dialog).getByText('Cannot change once the project has tasks.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Type')).toBeEnabled();
  });
});
