import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { TaskComment, TaskDetail, TaskStatus } from '@portal/shared/core/projects';
import { renderWithProviders } from '@portal/shared/testing';
import { Link, Route, Routes } from '@portal/shared/web/router';
import {
  AddressQuery,
  button,
  findDialog,
  findHeading,
  makeProject,
  makeTaskDetail,
  person,
  session,
  setupTestServer,
  setupUser,
} from '../testing/fixtures';
import { TaskPage } from './task-page';

let task: TaskDetail;
let subtask: TaskDetail;
let comments: TaskComment[];
let sent: string[];

setupTestServer(
  http.get('*/api/v1/projects/p1', () => HttpResponse.json(makeProject())),
  http.get('*/api/v1/projects/p1/tasks/t1', () => HttpResponse.json(task)),
  http.get('*/api/v1/projects/p1/tasks/t1/comments', () => HttpResponse.json({ results: comments })),
  http.get('*/api/v1/projects/p1/tasks/t2', () => HttpResponse.json(subtask)),
  http.get('*/api/v1/projects/p1/tasks/t2/comments', () => HttpResponse.json({ results: [] })),
  // the Files section (features/files has its own tests)
  http.get('*/api/v1/projects/p1/tasks/:taskId/files', () => HttpResponse.json({ results: [] })),
  http.get('*/api/v1/projects/p1/folders', () => HttpResponse.json({ results: [] })),
  http.delete('*/api/v1/projects/p1/tasks/:taskId', ({ params }) => {
    sent.push(`delete ${String(params.taskId)}`);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/v1/projects/p1/tasks/t1/status', async ({ request }) => {
    const body = (await request.json()) as { status: TaskStatus };
    sent.push(`status ${JSON.stringify(body)}`);
    task = { ...task, status: body.status };
    return HttpResponse.json(task);
  }),
  http.post('*/api/v1/projects/p1/tasks/t1/comments', async ({ request }) => {
    const { body } = (await request.json()) as { body: string };
    sent.push(`comment ${JSON.stringify({ body })}`);
    const comment = {
      id: 'm9',
      taskId: 't1',
      author: person('u1', 'Sam', 'Staff'),
      body,
      createdAt: '2026-02-03T09:00:00.000Z',
    };
    comments = [...comments, comment];
    return HttpResponse.json(comment, { status: 201 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  sent = [];
  comments = [];
  task = makeTaskDetail({ title: 'Review access', status: 'IN_REVIEW' });
  subtask = makeTaskDetail({
    id: 't2',
    title: 'Export the user list',
    parentId: 't1',
    parent: { id: 't1', title: 'Review access', referenceId: 'CC-01' },
  });
});

/** The project page, as the Tasks tab links to a task: with the tab's address in the link's state. */
function ProjectPageStub() {
  return (
    <>
      <p>Project page</p>
      <Link to="/v2/projects/p1/tasks/t2" state={{ projectSearch: '?tasksPage=2&taskStatus=OPEN' }}>
        Open the subtask
      </Link>
    </>
  );
}

const renderTask = () =>
  renderWithProviders(
    <Routes>
      <Route path="/v2/projects/:projectId/tasks/:taskId" element={<TaskPage />} />
    </Routes>,
    { route: '/v2/projects/p1/tasks/t1', session },
  );

async function offeredMoves(): Promise<string[]> {
  await ue.click(button('Change status'));
  await screen.findAllByRole('menuitem');
  return [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) [role="menuitem"]')].map(
    (m) => m.textContent ?? '',
  );
}

describe('task page', () => {
  it('offers only the status moves allowed from the current status', async () => {
    renderTask();
    expect(await findHeading('Review access')).toBeInTheDocument();
    expect(screen.getByText('In review', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(await offeredMoves()).toEqual(['Move to Completed', 'Move to Incomplete']);
    await ue.click(screen.getByText('Move to Completed'));
    await waitFor(() => expect(sent).toEqual(['status {"status":"COMPLETED"}']));
    // the page follows the server: from Completed the only move is back to In progress
    expect(await screen.findByText('Completed', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(await offeredMoves()).toEqual(['Move to In progress']);
  });

  it('shows comments oldest first as plain text and sends one with Ctrl+Enter; no status control without the permission', async () => {
    task = makeTaskDetail({ title: 'Review access', permissions: { edit: false, changeStatus: false, comment: true } });
    comments = [
      {
        id: 'm2',
        taskId: 't1',
        author: person('u2', 'Ann'),
        body: '<b>second</b>',
        createdAt: '2026-02-02T09:00:00.000Z',
      },
      {
        id: 'm1',
        taskId: 't1',
        author: person('u1', 'Sam', 'Staff'),
        body: 'first',
        createdAt: '2026-02-01T09:00:00.000Z',
      },
    ];
    renderTask();
    await findHeading('Review access');
    const list = await screen.findByRole('list', { name: 'Comments' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('<b>second</b>'),
    ]);
    expect(list.querySelector('b')).toBeNull();
    expect(screen.queryByText('Change status')).not.toBeInTheDocument();
    expect(screen.queryByText('Edit', { selector: 'button *' })).not.toBeInTheDocument();

    await ue.type(screen.getByLabelText('Add a comment'), 'Evidence attached{Control>}{Enter}{/Control}');
    await waitFor(() => expect(sent).toEqual(['comment {"body":"Evidence attached"}']));
    expect(await screen.findByText('Evidence attached', { selector: 'li *' })).toBeInTheDocument();
    expect(screen.getByLabelText('Add a comment')).toHaveValue('');
  });

  it('after deleting a subtask shows its parent, and after deleting a task the project’s list as it was left', async () => {
    renderWithProviders(
      <>
        <Routes>
          <Route path="/v2/projects/:projectId" element={<ProjectPageStub />} />
          <Route path="/v2/projects/:projectId/tasks/:taskId" element={<TaskPage />} />
        </Routes>
        <AddressQuery />
      </>,
      { route: '/v2/projects/p1?tasksPage=2&taskStatus=OPEN', session },
    );
    await ue.click(await screen.findByText('Open the subtask'));
    await findHeading('Export the user list');
    await ue.click(button('Delete'));
    await ue.click(button('Delete task', await findDialog()));
    await waitFor(() => expect(sent).toEqual(['delete t2']));
    expect(await findHeading('Review access')).toBeInTheDocument();

    await ue.click(button('Delete'));
    await ue.click(button('Delete task', await findDialog()));
    await waitFor(() => expect(sent).toEqual(['delete t2', 'delete t1']));
    expect(await screen.findByText('Project page')).toBeInTheDocument();
    expect(screen.getByLabelText('query')).toHaveTextContent('?tasksPage=2&taskStatus=OPEN');
  });
});
