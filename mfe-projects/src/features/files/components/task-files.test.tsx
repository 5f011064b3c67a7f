import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { DocumentRow, TaskFile } from '@portal/shared/core/files';
import { renderWithProviders } from '@portal/shared/testing';
import {
  apiError,
  button,
  findDialog,
  makeProject,
  session,
  setupTestServer,
  setupUser,
} from '../../projects/testing/fixtures';
import { makeFile, makeFolder, pickedFile } from '../testing/files-fixtures';
import { filesApi } from '../../../app/files-api';
import { TaskFiles } from './task-files';

const sam = { id: 'u1', name: 'Sam Staff', email: 'sam@demo.test' };
const attachedFile = (id: string, name: string): TaskFile => ({
  ...makeFile(id, name, 'root'),
  attachedAt: '2026-02-01T10:00:00.000Z',
  attachedBy: sam,
});
const doc = (id: string, name: string, folderPath: string): DocumentRow => ({
  ...makeFile(id, name, 'f1'),
  project: { id: 'p1', title: 'SOC 2' },
  folderPath,
});

let taskFiles: TaskFile[];
let sent: string[];
let searches: string[];
let attachReply: { status: number; body: unknown } | null;
let uploads: { folderId: string; taskId: string | null; name: string }[];

const server = setupTestServer(
  http.get('*/api/v1/projects/p1/tasks/t1/files', () => HttpResponse.json({ results: taskFiles })),
  http.get('*/api/v1/projects/p1/folders', () =>
    HttpResponse.json({ results: [makeFolder('root', 'p1', null), makeFolder('f1', 'Evidence', 'root')] }),
  ),
  http.get('*/api/v1/companies/c1/files', ({ request }) => {
    const url = new URL(request.url);
    searches.push(decodeURIComponent(url.search));
    const all = [
      doc('d1', 'access review.xlsx', 'Evidence'),
      doc('d2', 'policy.pdf', ''),
      doc('d3', 'network.png', 'Evidence / Q1'),
    ];
    const search = url.searchParams.get('search')?.toLowerCase();
    const results = all.filter((d) => !search || d.name.toLowerCase().includes(search));
    return HttpResponse.json({ results, total: results.length, page: 1, pageSize: 20 });
  }),
  // the look-up before an upload: the root holds nothing of that name
  http.get('*/api/v1/projects/p1/files', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 200 })),
  http.post('*/api/v1/projects/p1/tasks/t1/files', async ({ request }) => {
    const { fileId } = (await request.json()) as { fileId: string };
    sent.push(`attach ${fileId}`);
    if (attachReply) return HttpResponse.json(attachReply.body as object, { status: attachReply.status });
    const attached = attachedFile(fileId, fileId === 'd3' ? 'network.png' : 'access review.xlsx');
    taskFiles = [...taskFiles, attached];
    return HttpResponse.json(attached, { status: 201 });
  }),
  http.delete('*/api/v1/projects/p1/tasks/t1/files/:fileId', ({ params }) => {
    sent.push(`detach ${String(params.fileId)}`);
    taskFiles = taskFiles.filter((f) => f.id !== params.fileId);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/v1/projects/p1/files', async ({ request }) => {
    const form = await request.formData();
    const file = form.get('file') as File;
    uploads.push({
      folderId: String(form.get('folderId')),
      taskId: form.get('taskId') as string | null,
      name: file.name,
    });
    const created = attachedFile(`n${uploads.length}`, file.name);
    taskFiles = [...taskFiles, created];
    return HttpResponse.json(created, { status: 201 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  taskFiles = [attachedFile('a1', 'scope.pdf')];
  sent = [];
  searches = [];
  attachReply = null;
  uploads = [];
});

const renderSection = (write = true) =>
  renderWithProviders(
    <TaskFiles project={makeProject({ permissions: { manage: write, write, manageRoster: false } })} taskId="t1" />,
    { session },
  );

async function pick(search: string, option: string) {
  const picker = screen.getByLabelText('Attach file');
  await ue.click(picker);
  await ue.type(picker, search);
  // the api searches every folder of the project
  await waitFor(() => expect(searches.at(-1)).toBe(`?projectId=p1&pageSize=20&sort=name&search=${search}`));
  await ue.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

describe('task files', () => {
  it('attaches a file of any folder found by name, and detaches one after asking', async () => {
    renderSection();
    const section = screen.getByTestId('task-files');
    expect(await within(section).findByText('scope.pdf')).toBeInTheDocument();
    await pick('netw', 'Evidence / Q1 / network.png');
    await waitFor(() => expect(sent).toEqual(['attach d3']));
    expect(await within(section).findByText('network.png')).toBeInTheDocument();

    await ue.click(screen.getByLabelText('Detach scope.pdf'));
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('The file stays in the project’s files.');
    await ue.click(button('Detach', dialog));
    await waitFor(() => expect(sent).toEqual(['attach d3', 'detach a1']));
    await waitFor(() => expect(within(section).queryByText('scope.pdf')).not.toBeInTheDocument());
  });

  it('says so when the file is already attached (409)', async () => {
    attachReply = apiError(409, 'file_already_attached_to_task', ERROR_MESSAGES.file_already_attached_to_task);
    renderSection();
    await screen.findByText('scope.pdf');
    await pick('access', 'Evidence / access review.xlsx');
    expect(await screen.findByText(ERROR_MESSAGES.file_already_attached_to_task)).toBeInTheDocument();
  });

  it('uploads to the project’s root folder attached to the task', async () => {
    renderSection();
    await screen.findByText('scope.pdf');
    await waitFor(() => expect(button('Upload')).toBeEnabled());
    await ue.upload(screen.getByLabelText('Files to upload to this task'), [pickedFile('minutes.docx')]);
    expect(await screen.findByTestId('upload-minutes.docx')).toHaveTextContent('Done');
    await waitFor(() => expect(uploads).toEqual([{ folderId: 'root', taskId: 't1', name: 'minutes.docx' }]));
    expect(await screen.findByText('minutes.docx', { selector: 'td *' })).toBeInTheDocument();
  });

  it('lets a reader download but not attach, upload or detach', async () => {
    renderSection(false);
    expect(await screen.findByLabelText('Download scope.pdf')).toBeInTheDocument();
    expect(screen.queryByLabelText('Attach file')).not.toBeInTheDocument();
    expect(screen.queryByText('Upload')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Detach scope.pdf')).not.toBeInTheDocument();
  });

  it('offers to load the folders again when they fail, and only then lets the user upload', async () => {
    server.use(
      http.get(
        '*/api/v1/projects/p1/folders',
        () => HttpResponse.json({ code: 'internal', message: 'boom', requestId: 'r' }, { status: 500 }),
        { once: true },
      ),
    );
    renderSection();
    expect(
      await screen.findByText('The project’s folders could not be loaded, so files cannot be uploaded here yet.'),
    ).toBeInTheDocument();
    expect(button('Upload')).toBeDisabled();
    await ue.click(button('Try again'));
    await waitFor(() => expect(button('Upload')).toBeEnabled());
    expect(
      screen.queryByText('The project’s folders could not be loaded, so files cannot be uploaded here yet.'),
    ).not.toBeInTheDocument();
  });

  it('keeps the browser from opening a file dropped on the section', async () => {
    renderSection();
    await screen.findByText('scope.pdf');
    const dataTransfer = { files: [pickedFile('stray.pdf')], types: ['Files'] };
    expect(fireEvent.dragOver(screen.getByTestId('task-files'), { dataTransfer })).toBe(false);
    expect(fireEvent.drop(screen.getByTestId('task-files'), { dataTransfer })).toBe(false);
    expect(uploads).toEqual([]);
  });

  it('searches the picker again when folders change (the rows show their folder’s path)', async () => {
    const { store } = renderSection();
    await screen.findByText('scope.pdf');
    await ue.click(screen.getByLabelText('Attach file'));
    await waitFor(() => expect(searches).toHaveLength(1));
    // a folder renamed or moved (what the files tab's folder changes invalidate)
    act(() => {
      store.dispatch(filesApi.util.invalidateTags(['Folders']));
    });
    await waitFor(() => expect(searches).toHaveLength(2));
  });
});
