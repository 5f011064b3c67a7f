import { File as NodeFile } from 'node:buffer';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithProviders } from '@portal/shared/testing';
import type { UploadOptions } from '@portal/shared/web/upload';
import {
  button,
  findDialog,
  makeProject,
  makeTask,
  session,
  setupTestServer,
  setupUser,
} from '../../projects/testing/fixtures';
import { projectsApi } from '../../../app/projects-api';
import { ImportTasksDialog } from './import-tasks-dialog';

// The upload (XHR, progress) is shared/src/web/upload.ts's: driven by hand here to reach each phase.
const mockCalls: { path: string; options: UploadOptions }[] = [];
jest.mock('@portal/shared/web/upload', () => {
  const actual = jest.requireActual('@portal/shared/web/upload');
  return {
    ...actual,
    uploadForm: (path: string, _form: FormData, options: UploadOptions) => {
      mockCalls.push({ path, options });
      return new Promise((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => reject(new DOMException('canceled', 'AbortError')));
      });
    },
  };
});

let taskRequests = 0;
let hold: Promise<void> | null = null;
setupTestServer(
  http.get('*/api/v1/projects/p1/tasks', async () => {
    taskRequests += 1;
    if (hold) await hold;
    return HttpResponse.json({ results: [makeTask(1)], total: 1, page: 1, pageSize: 25 });
  }),
);

function TaskCount() {
  const tasks = projectsApi.endpoints.projectsTasks.useQuery({ projectId: 'p1', page: 1, pageSize: 25 } as Parameters<
    typeof projectsApi.endpoints.projectsTasks.useQuery
  >[0]);
  return <span aria-label="tasks">{tasks.isFetching ? 'fetching' : String(tasks.data?.total ?? 0)}</span>;
}

it('"Stop waiting" once the file is sent: Escape does not abort, the note says it may finish, Import waits for the task list', async () => {
  const ue = setupUser();
  const closes: string[] = [];
  renderWithProviders(
    <>
      <TaskCount />
      <ImportTasksDialog project={makeProject()} onClose={() => closes.push('close')} />
    </>,
    { session },
  );
  await waitFor(() => expect(screen.getByLabelText('tasks')).toHaveTextContent('1'));
  const dialog = await findDialog();
  await ue.upload(
    within(dialog).getByLabelText('Task tracker file'),
    new NodeFile(['Task Title\nA\n'], 'tracker.csv') as unknown as File,
  );
  await ue.click(button('Import', dialog));
  expect(mockCalls[0].path).toBe('/projects/p1/tasks/import');
  act(() => mockCalls[0].options.onProgress?.(30, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Uploading… 30%');
  expect(button('Cancel', dialog)).toBeInTheDocument();
  act(() => mockCalls[0].options.onProgress?.(100, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Importing rows…');

  await ue.keyboard('{Escape}');
  expect(within(dialog).getByRole('status')).toHaveTextContent('Importing rows…');
  expect(closes).toEqual([]);

  let release: () => void = () => undefined;
  hold = new Promise<void>((resolve) => (release = resolve));
  const before = taskRequests;
  await ue.click(button('Stop waiting', dialog));
  expect(await within(dialog).findByText(/the import may still finish/)).toBeInTheDocument();
  await waitFor(() => expect(taskRequests).toBe(before + 1));
  expect(button('Import', dialog)).toBeDisabled();
  act(() => release());
  hold = null;
  await waitFor(() => expect(button('Import', dialog)).toBeEnabled());
  expect(closes).toEqual([]);
});
