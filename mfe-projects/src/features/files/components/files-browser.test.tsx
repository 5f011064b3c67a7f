import { useState, type ReactNode } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { fileDisplayName, type Folder, type ProjectFile } from '@portal/shared/core/files';
import { toast$ } from '@portal/shared/web/events';
import type { Project } from '@portal/shared/core/projects';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import {
  AddressQuery,
  address,
  apiError,
  BackButton,
  button,
  findDialog,
  isClosed,
  makeProject,
  session,
  setupTestServer,
  setupUser,
} from '../../projects/testing/fixtures';
import { gate, hugeFile, makeFile, makeFolder, pickedFile } from '../testing/files-fixtures';
import { LEFT_BEFORE_CHOOSING } from '../hooks/use-uploads';
import { FilesBrowser } from './files-browser';

let folders: Folder[];
let files: ProjectFile[];
let listRequests: string[];
let uploads: { folderId: string; onConflict: string; name: string }[];
let uploadGate: ReturnType<typeof gate> | null;
let sent: string[];
let createdCount = 0;
let folderPatchReply: { status: number; body: unknown } | null;

const page = <T,>(items: T[], url: URL) => {
  const n = Number(url.searchParams.get('page') ?? 1);
  const size = Number(url.searchParams.get('pageSize') ?? 25);
  return { results: items.slice((n - 1) * size, n * size), total: items.length, page: n, pageSize: size };
};

const server = setupTestServer(
  http.get('*/api/v1/projects/p1/folders', () => HttpResponse.json({ results: folders })),
  http.get('*/api/v1/projects/p1/files', ({ request }) => {
    const url = new URL(request.url);
    // the look-ups before an upload ask for 200 at once; the tab asks for pages of 25
    if (url.searchParams.get('pageSize') !== '200') listRequests.push(decodeURIComponent(url.search));
    const folderId = url.searchParams.get('folderId') ?? 'root';
    const search = url.searchParams.get('search')?.toLowerCase();
    return HttpResponse.json(
      page(
        files.filter((f) => f.folderId === folderId && (!search || f.name.toLowerCase().includes(search))),
        url,
      ),
    );
  }),
  http.post('*/api/v1/projects/p1/files', async ({ request }) => {
    const form = await request.formData();
    const file = form.get('file') as File;
    const entry = {
      folderId: String(form.get('folderId')),
      onConflict: String(form.get('onConflict')),
      name: file.name,
    };
    uploads.push(entry);
    if (uploadGate) await uploadGate.wait;
    const made = makeFile(`n${(createdCount += 1)}`, file.name, entry.folderId, { size: file.size });
    files = [...files, made];
    return HttpResponse.json(made, { status: 201 });
  }),
  http.post('*/api/v1/projects/p1/folders', async ({ request }) => {
    const body = (await request.json()) as { name: string; parentId: string };
    sent.push(`create ${JSON.stringify(body)}`);
    const created = makeFolder(`f${folders.length + 10}`, body.name, body.parentId);
    folders = [...folders, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.patch('*/api/v1/projects/p1/folders/:folderId', async ({ request, params }) => {
    sent.push(`patch ${String(params.folderId)} ${JSON.stringify(await request.json())}`);
    const reply = folderPatchReply ?? { status: 200, body: folders.find((f) => f.id === params.folderId) };
    return HttpResponse.json(reply.body as object, { status: reply.status });
  }),
  http.get('*/api/v1/projects/p1/files/:fileId', ({ params }) => {
    const file = files.find((f) => f.id === params.fileId) as ProjectFile;
    const version = (n: number, by: string) => ({
      id: `${file.id}-v${n}`,
      fileId: file.id,
      version: n,
      size: 1000 * n,
      sha256: String(n).repeat(64),
      contentType: file.contentType,
      uploadedBy: { id: `u${n}`, name: by, email: `${by.toLowerCase()}@demo.test` },
      createdAt: `2026-01-0${n}T10:00:00.000Z`,
    });
    return HttpResponse.json({
      ...file,
      versions: [version(3, 'Ann'), version(2, 'Bo'), version(1, 'Cy')],
      tasks: [{ id: 't4', title: 'Collect evidence', referenceId: 'CC-04' }],
    });
  }),
  http.get('*/api/v1/files/:fileId/signed-url', ({ request, params }) => {
    sent.push(`sign ${String(params.fileId)}${new URL(request.url).search}`);
    return HttpResponse.json({
      url: '/api/v1/files/x/content?s=1',
      expiresAt: '2026-01-01T00:05:00.000Z',
      name: 'data.xlsx',
    });
  }),
  http.delete('*/api/v1/projects/p1/folders/:folderId', ({ params }) => {
    sent.push(`delete ${String(params.folderId)}`);
    folders = folders.filter((f) => f.id !== params.folderId);
    return new HttpResponse(null, { status: 204 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  folders = [
    makeFolder('root', 'p1', null),
    makeFolder('f1', 'Evidence', 'root'),
    makeFolder('f2', 'Policies', 'root'),
    makeFolder('f3', 'Q1', 'f1'),
  ];
  files = [
    makeFile('a1', 'report.pdf', 'root'),
    makeFile('a2', 'data.xlsx', 'root', { version: 3, versionCount: 3 }),
    ...Array.from({ length: 30 }, (_, i) =>
      makeFile(`e${i + 1}`, `evidence-${String(i + 1).padStart(2, '0')}.png`, 'f1'),
    ),
  ];
  listRequests = [];
  uploads = [];
  uploadGate = null;
  sent = [];
  folderPatchReply = null;
});
afterEach(() => uploadGate?.open());

function renderFiles(search: string, project: Project = makeProject()) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/v2/projects/:projectId" element={<FilesBrowser project={project} />} />
      </Routes>
      <AddressQuery />
      <BackButton />
    </>,
    { route: `/v2/projects/p1${search}`, session },
  );
}

const fileRow = (name: string) => screen.findByTestId(`file-${name}`);
const uploadRow = (name: string) => screen.findByTestId(`upload-${name}`);
const crumbs = () => screen.getByRole('navigation', { name: 'Folder path' }).textContent;

/** Drops files on an element as a browser does: the drag passes over it first. */
function dropOn(element: Element, dropped: File[]) {
  const dataTransfer = { files: dropped, types: ['Files'] };
  fireEvent.dragOver(element, { dataTransfer });
  fireEvent.drop(element, { dataTransfer });
}

describe('files tab', () => {
  it('follows folderId and filesPage in the address; opening a folder starts at its first page and back restores it', async () => {
    renderFiles('?view=files&folderId=f1&filesPage=2');
    expect(await fileRow('evidence-26.png')).toBeInTheDocument();
    expect(listRequests).toEqual(['?page=2&pageSize=25&sort=name&folderId=f1']);
    await waitFor(() => expect(crumbs()).toBe('Files/Evidence'));
    const q1 = await screen.findByTestId('folder-Q1');
    expect(within(q1).getByRole('img', { name: 'folder' })).toBeInTheDocument();

    await ue.click(within(q1).getByText('Q1'));
    await waitFor(() => expect(address()).toBe('?view=files&folderId=f3'));
    expect(await screen.findByText('No files in this folder yet')).toBeInTheDocument();
    expect(crumbs()).toBe('Files/Evidence/Q1');

    await ue.click(button('Browser back'));
    await waitFor(() => expect(address()).toBe('?view=files&folderId=f1&filesPage=2'));
    expect(await fileRow('evidence-30.png')).toBeInTheDocument();

    // the root is "Files" in the path; Enter on a folder's row opens it
    await ue.click(screen.getByText('Files', { selector: 'nav a' }));
    await waitFor(() => expect(address()).toBe('?view=files'));
    const evidence = await screen.findByTestId('folder-Evidence');
    expect(await fileRow('report.pdf')).toHaveTextContent('2 KB');
    evidence.focus();
    await ue.keyboard('{Enter}');
    await waitFor(() => expect(address()).toBe('?view=files&folderId=f1'));
  });

  it('shows the grid view from the address and keeps the toggle there', async () => {
    renderFiles('?view=files&filesView=grid');
    const card = await fileRow('data.xlsx');
    expect(card).toHaveTextContent('v3');
    expect(within(card).getByRole('img', { name: 'excel file' })).toBeInTheDocument();
    expect(await screen.findByTestId('folder-Policies')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await ue.click(screen.getByText('List'));
    await waitFor(() => expect(address()).toBe('?view=files'));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('uploads a file dropped on a folder into that folder, with its progress and then the file', async () => {
    uploadGate = gate();
    renderFiles('?view=files');
    const policies = await screen.findByTestId('folder-Policies');
    dropOn(policies, [pickedFile('audit plan.pdf')]);
    const row = await uploadRow('audit plan.pdf');
    await waitFor(() => expect(uploads).toEqual([{ folderId: 'f2', onConflict: 'fail', name: 'audit plan.pdf' }]));
    expect(row).toHaveTextContent('to Policies');
    expect(within(row).getByRole('progressbar')).toBeInTheDocument();
    expect(within(row).getByText('Cancel')).toBeInTheDocument();

    uploadGate.open();
    await waitFor(() => expect(row).toHaveTextContent('Done'));
    expect(within(row).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(row).queryByText('Cancel')).not.toBeInTheDocument();

    await ue.click(within(policies).getByText('Policies'));
    expect(await fileRow('audit plan.pdf')).toBeInTheDocument();
  });

  it('uploads chosen and pasted files into the folder on screen, and the list shows them', async () => {
    renderFiles('?view=files&folderId=f2');
    await screen.findByText('No files in this folder yet');
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('one.txt'), pickedFile('two.txt')]);
    expect(await fileRow('one.txt')).toBeInTheDocument();
    expect(await fileRow('two.txt')).toBeInTheDocument();

    // a paste counts only while the pointer is over the drop target
    const target = screen.getByTestId('files-drop-target');
    fireEvent.paste(document, { clipboardData: { files: [pickedFile('elsewhere.txt')] } });
    fireEvent.pointerEnter(target);
    fireEvent.paste(document, { clipboardData: { files: [pickedFile('pasted.png')] } });
    expect(await fileRow('pasted.png')).toBeInTheDocument();
    expect(uploads.map((u) => `${u.name} -> ${u.folderId}`)).toEqual([
      'one.txt -> f2',
      'two.txt -> f2',
      'pasted.png -> f2',
    ]);
  });

  it('cancels an upload that is running', async () => {
    uploadGate = gate();
    renderFiles('?view=files');
    await screen.findByTestId('folder-Policies');
    dropOn(screen.getByTestId('files-drop-target'), [pickedFile('slow.zip')]);
    const row = await uploadRow('slow.zip');
    await waitFor(() => expect(uploads).toHaveLength(1));
    await ue.click(within(row).getByText('Cancel'));
    await waitFor(() => expect(row).toHaveTextContent('Canceled'));
    expect(within(row).queryByText('Cancel')).not.toBeInTheDocument();
  });

  it('sends at most three files at once', async () => {
    uploadGate = gate();
    renderFiles('?view=files&folderId=f2');
    await screen.findByText('No files in this folder yet');
    const names = ['1.txt', '2.txt', '3.txt', '4.txt', '5.txt'];
    dropOn(
      screen.getByTestId('files-drop-target'),
      names.map((n) => pickedFile(n)),
    );
    await waitFor(() => expect(uploads).toHaveLength(3));
    expect(await uploadRow('5.txt')).toHaveTextContent('Waiting…');
    await new Promise((r) => setTimeout(r, 200));
    expect(uploads).toHaveLength(3);
    uploadGate.open();
    await waitFor(() => expect(uploads.map((u) => u.name).sort()).toEqual(names));
    for (const n of names) await waitFor(async () => expect(await uploadRow(n)).toHaveTextContent('Done'));
  });

  it('refuses empty and oversized files at once, without sending them', async () => {
    renderFiles('?view=files');
    await screen.findByTestId('folder-Policies');
    await ue.upload(screen.getByLabelText('Files to upload'), [
      pickedFile('empty.txt', ''),
      hugeFile('huge.zip', 100 * 1024 * 1024 + 1),
    ]);
    expect(await uploadRow('empty.txt')).toHaveTextContent('The file is empty: there is nothing to upload.');
    expect(await uploadRow('huge.zip')).toHaveTextContent('The file is larger than 100 MB, the most a file may be.');
    expect(uploads).toEqual([]);
  });

  it('asks before uploading a name the folder already has, and sends it as a new version when told to', async () => {
    renderFiles('?view=files');
    await fileRow('report.pdf');
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('report.pdf')]);
    let dialog = await findDialog();
    expect(dialog).toHaveTextContent('report.pdf already exists in Files');
    await ue.click(button('Upload as a new version', dialog));
    await waitFor(() => expect(uploads).toEqual([{ folderId: 'root', onConflict: 'version', name: 'report.pdf' }]));
    expect(await uploadRow('report.pdf')).toHaveTextContent('Done');

    await ue.click(button('Clear finished'));
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('REPORT.pdf')]);
    dialog = await findDialog();
    await ue.click(button('Cancel', dialog));
    expect(await uploadRow('REPORT.pdf')).toHaveTextContent('Not uploaded: the existing file was kept.');
    expect(uploads).toHaveLength(1);
  });

  it('shows the api’s message in the move dialog when a folder is moved into its own subfolder', async () => {
    folderPatchReply = apiError(
      400,
      'folder_cannot_be_moved_to_itself',
      ERROR_MESSAGES.folder_cannot_be_moved_to_itself,
    );
    renderFiles('?view=files');
    await ue.click(await screen.findByLabelText('Move Evidence'));
    const dialog = await findDialog();
    await ue.click(dialog.querySelector('.ant-select') as HTMLElement);
    // the subfolder is offered (marked), so the api gives the reason
    await ue.click(await screen.findByText('Q1 (inside Evidence)'));
    await ue.click(button('Move', dialog));
    await waitFor(() => expect(sent).toEqual(['patch f1 {"parentId":"f3"}']));
    expect(await within(dialog).findByText(ERROR_MESSAGES.folder_cannot_be_moved_to_itself)).toBeInTheDocument();
    expect(isClosed(dialog)).toBe(false);
  });

  it('moves a folder into another and creates a folder where the user is', async () => {
    renderFiles('?view=files');
    await ue.click(await screen.findByLabelText('Move Policies'));
    const dialog = await findDialog();
    await ue.click(dialog.querySelector('.ant-select') as HTMLElement);
    await ue.click(await screen.findByText('Evidence', { selector: '.ant-select-tree-title' }));
    await ue.click(button('Move', dialog));
    await waitFor(() => expect(sent).toEqual(['patch f2 {"parentId":"f1"}']));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));

    await ue.click(button('New folder'));
    const create = await findDialog();
    await ue.type(within(create).getByLabelText('Folder name'), 'Q2{Enter}');
    await waitFor(() => expect(sent).toContain('create {"name":"Q2","parentId":"root"}'));
    expect(await screen.findByTestId('folder-Q2')).toBeInTheDocument();
  });

  it('asks before deleting a folder, saying its subfolders and files go with it', async () => {
    renderFiles('?view=files');
    await ue.click(await screen.findByLabelText('Delete Evidence'));
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('Delete the folder Evidence?');
    expect(dialog).toHaveTextContent('Its subfolders and every file in them');
    expect(sent).toEqual([]);
    await ue.click(button('Delete folder', dialog));
    await waitFor(() => expect(sent).toEqual(['delete f1']));
    await waitFor(() => expect(screen.queryByTestId('folder-Evidence')).not.toBeInTheDocument());
  });

  it('lists a file’s versions with uploader, size, date and SHA-256, each downloadable through a signed link', async () => {
    renderFiles('?view=files');
    await ue.click(within(await fileRow('data.xlsx')).getByLabelText('Versions of data.xlsx'));
    const dialog = await screen.findByRole('dialog');
    const table = await within(dialog).findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    ['v3Ann2.9 KB1/3/2026', 'v2Bo2 KB1/2/2026', 'v1Cy1000 B1/1/2026'].forEach((text, i) =>
      expect(rows[i].textContent?.replace(/\d+:\d\d[AP]M /, '')).toContain(text),
    );
    expect(within(rows[2]).getByText('1'.repeat(64))).toBeInTheDocument();
    expect(within(dialog).getByText('CC-04 Collect evidence')).toBeInTheDocument();
    const followed: { href: string; download: string }[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    await ue.click(within(dialog).getByLabelText('Download version 1'));
    await waitFor(() => expect(sent).toEqual(['sign a2?versionId=a2-v1']));
    await waitFor(() => expect(followed).toEqual([{ href: '/api/v1/files/x/content?s=1', download: 'data.xlsx' }]));
    click.mockRestore();
  });

  it('offers a reader downloads but no upload, drop target or changes', async () => {
    renderFiles('?view=files', makeProject({ permissions: { manage: false, write: false, manageRoster: false } }));
    const row = await fileRow('report.pdf');
    expect(within(row).getByLabelText('Download report.pdf')).toBeInTheDocument();
    expect(within(row).getByLabelText('Versions of report.pdf')).toBeInTheDocument();
    expect(screen.queryByText('Upload')).not.toBeInTheDocument();
    expect(screen.queryByText('New folder')).not.toBeInTheDocument();
    expect(screen.queryByTestId('files-drop-target')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Delete report.pdf')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Rename Evidence')).not.toBeInTheDocument();
    expect(screen.queryByText('Upload files, or drop them here.')).not.toBeInTheDocument();
  });
});

/** The files tab beside another tab: "Switch tab" unmounts it and brings it back, as the project page does. */
function Switchable({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(true);
  return (
    <>
      {shown ? children : <p>Another tab</p>}
      <button type="button" onClick={() => setShown((s) => !s)}>
        Switch tab
      </button>
    </>
  );
}

function renderSwitchable(search: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route
          path="/v2/projects/:projectId"
          element={
            <Switchable>
              <FilesBrowser project={makeProject()} />
            </Switchable>
          }
        />
      </Routes>
      <AddressQuery />
    </>,
    { route: `/v2/projects/p1${search}`, session },
  );
}

/** Whether leaving the page would ask first (a beforeunload whose default is prevented). */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('files tab: uploads and drops (review fixes)', () => {
  it('keeps uploads going and listed across a tab switch, and settles a question left open', async () => {
    uploadGate = gate();
    renderSwitchable('?view=files');
    await fileRow('report.pdf');
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('slow.zip')]);
    await waitFor(() => expect(uploads).toHaveLength(1));
    // a taken name: the question is still open when the user switches tabs
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('report.pdf')]);
    expect(await findDialog()).toHaveTextContent('report.pdf already exists in Files');
    await ue.click(button('Switch tab'));
    expect(screen.queryByTestId('files-tab')).not.toBeInTheDocument();

    uploadGate.open();
    await waitFor(() => expect(files.some((f) => f.name === 'slow.zip')).toBe(true));
    await ue.click(button('Switch tab'));
    await waitFor(async () => expect(await uploadRow('slow.zip')).toHaveAttribute('data-status', 'done'));
    expect(await uploadRow('report.pdf')).toHaveTextContent(LEFT_BEFORE_CHOOSING);
    expect(uploads).toHaveLength(1);
    expect(await fileRow('slow.zip')).toBeInTheDocument();
  });

  it('asks before the page is left while a file is uploading, and announces only how uploads end', async () => {
    uploadGate = gate();
    renderFiles('?view=files&folderId=f2');
    await screen.findByText('No files in this folder yet');
    expect(leavingAsks()).toBe(false);
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('slow.zip')]);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(leavingAsks()).toBe(true);
    expect(screen.getByRole('list', { name: 'Uploads' })).not.toHaveAttribute('aria-live');
    expect(screen.getByTestId('upload-announcements')).toHaveTextContent('');

    uploadGate.open();
    await waitFor(async () => expect(await uploadRow('slow.zip')).toHaveAttribute('data-status', 'done'));
    expect(leavingAsks()).toBe(false);
    expect(screen.getByTestId('upload-announcements')).toHaveTextContent('slow.zip uploaded');
  });

  it('keeps the browser from opening a file dropped beside the drop target, and uploads nothing', async () => {
    renderFiles('?view=files');
    await screen.findByTestId('folder-Policies');
    const beside = screen.getByRole('navigation', { name: 'Folder path' });
    const dataTransfer = { files: [pickedFile('stray.pdf')], types: ['Files'] };
    // fireEvent returns false when the default (opening the file) was prevented
    expect(fireEvent.dragOver(beside, { dataTransfer })).toBe(false);
    expect(fireEvent.drop(beside, { dataTransfer })).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('upload-stray.pdf')).not.toBeInTheDocument();
    expect(uploads).toEqual([]);
  });

  it('shows the api’s reason for a refused file (415), and announces it', async () => {
    server.use(
      http.post('*/api/v1/projects/p1/files', () =>
        HttpResponse.json(
          {
            code: 'unsupported_file_type',
            message: ERROR_MESSAGES.unsupported_file_type,
            requestId: 'r',
            details: [{ field: 'file', message: 'x.pdf is not a PDF' }],
          },
          { status: 415 },
        ),
      ),
    );
    renderFiles('?view=files&folderId=f2');
    await screen.findByText('No files in this folder yet');
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile('x.pdf')]);
    await waitFor(async () => expect(await uploadRow('x.pdf')).toHaveAttribute('data-status', 'error'));
    expect(await uploadRow('x.pdf')).toHaveTextContent('x.pdf is not a PDF');
    expect(screen.getByTestId('upload-announcements')).toHaveTextContent('x.pdf failed: x.pdf is not a PDF');
  });

  it('looks a long name up by the name the api keeps (at most 200 characters)', async () => {
    const searches: string[] = [];
    server.use(
      http.get('*/api/v1/projects/p1/files', ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('pageSize') !== '200') return undefined;
        searches.push(url.searchParams.get('search') ?? '');
        return HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 200 });
      }),
    );
    renderFiles('?view=files&folderId=f2');
    await screen.findByText('No files in this folder yet');
    const long = `${'a'.repeat(230)}.txt`;
    await ue.upload(screen.getByLabelText('Files to upload'), [pickedFile(long)]);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(searches).toEqual([fileDisplayName(long)]);
    expect(searches[0]).toHaveLength(200);
  });

  it('offers to try the folders again when they fail to load, and says why a drop is refused meanwhile', async () => {
    server.use(
      http.get(
        '*/api/v1/projects/p1/folders',
        () => HttpResponse.json({ code: 'internal', message: 'boom', requestId: 'r' }, { status: 500 }),
        { once: true },
      ),
    );
    const toasts: string[] = [];
    const subscription = toast$.subscribe((t) => toasts.push(`${t.summary}: ${t.detail ?? ''}`));
    renderFiles('?view=files');
    expect(await screen.findByText('The folders could not be loaded.')).toBeInTheDocument();
    dropOn(screen.getByTestId('files-drop-target'), [pickedFile('early.txt')]);
    expect(toasts).toContain(
      'Nothing was uploaded: The folder is not known yet: wait until the folders are loaded, then try again.',
    );
    expect(screen.queryByTestId('upload-early.txt')).not.toBeInTheDocument();
    await ue.click(button('Try again'));
    expect(await screen.findByTestId('folder-Policies')).toBeInTheDocument();
    subscription.unsubscribe();
  });

  it('goes back to the last page there is when the address points past it', async () => {
    renderFiles('?view=files&folderId=f1&filesPage=3');
    await waitFor(() => expect(address()).toBe('?view=files&folderId=f1&filesPage=2'));
    expect(await fileRow('evidence-26.png')).toBeInTheDocument();
  });

  it('shows the api’s reason under "Move to" when a folder of that name is already there', async () => {
    folderPatchReply = apiError(409, 'folder_already_exist', ERROR_MESSAGES.folder_already_exist, [
      { field: 'name', message: ERROR_MESSAGES.folder_already_exist },
    ]);
    renderFiles('?view=files');
    await ue.click(await screen.findByLabelText('Move Policies'));
    const dialog = await findDialog();
    await ue.click(dialog.querySelector('.ant-select') as HTMLElement);
    await ue.click(await screen.findByText('Evidence', { selector: '.ant-select-tree-title' }));
    await ue.click(button('Move', dialog));
    await waitFor(() => expect(sent).toEqual(['patch f2 {"parentId":"f1"}']));
    const message = await within(dialog).findByText(ERROR_MESSAGES.folder_already_exist);
    // inline, under the picker: the form's only field
    expect(message.closest('.ant-form-item')).toContainElement(within(dialog).getByLabelText('Move to'));
    expect(isClosed(dialog)).toBe(false);
  });
});
