import { File as NodeFile } from 'node:buffer';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { TaskTrackerSummary } from '@portal/shared/core/practices';
import { renderWithProviders } from '@portal/shared/testing';
import type { UploadOptions } from '@portal/shared/web/upload';
import { button, findDialog, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { useSettingsTemplatesListQuery } from '../api/practices-api';
import { TemplateFileModal } from './template-file-modal';

// The upload itself (XHR, progress events) is shared/src/web/upload.ts's: here it is driven by hand,
// to see each phase the dialog shows while the server still has the file.
const mockCalls: { path: string; options: UploadOptions; fields: string[] }[] = [];
jest.mock('@portal/shared/web/upload', () => {
  const actual = jest.requireActual('@portal/shared/web/upload');
  return {
    ...actual,
    uploadForm: (path: string, form: FormData, options: UploadOptions) => {
      mockCalls.push({ path, options, fields: [...form.keys()] });
      return new Promise((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => reject(new DOMException('canceled', 'AbortError')));
      });
    },
  };
});

const draft: TaskTrackerSummary = {
  id: 't2',
  practiceId: 'p1',
  name: 'Draft one',
  description: '',
  status: 'draft',
  taskCount: 4,
  controlCount: 2,
  pointOfFocusCount: 0,
  createdBy: null,
  createdAt: '2026-03-01T10:00:00',
  updatedAt: '2026-03-02T10:00:00',
};

afterEach(() => {
  mockCalls.length = 0;
});

/** The practice's templates, as the page shows them: what "Stop waiting" must read again. */
function TemplatesCount() {
  const list = useSettingsTemplatesListQuery('p1');
  return <span aria-label="templates">{list.isFetching ? 'fetching' : String(list.data?.length ?? 0)}</span>;
}

let listRequests = 0;
let releaseList: () => void = () => undefined;
let holdList = false;
setupTestServer(
  http.get('*/api/v1/practices/p1/task-trackers', async () => {
    listRequests += 1;
    if (holdList) await new Promise<void>((resolve) => (releaseList = resolve));
    return HttpResponse.json({ results: [draft] });
  }),
);

it('shows the upload percent, then that the rows are imported; "Stop waiting" reads the list again before another import', async () => {
  const ue = setupUser();
  const closes: string[] = [];
  renderWithProviders(
    <>
      <TemplatesCount />
      <TemplateFileModal
        target={{ kind: 'replace', practiceId: 'p1', tracker: draft }}
        onClose={() => closes.push('close')}
      />
    </>,
    { session: sessionFor({ isTevora: true }) },
  );
  await waitFor(() => expect(screen.getByLabelText('templates')).toHaveTextContent('1'));
  const dialog = await findDialog();
  expect(within(dialog).getByText('Replace Draft one from file')).toBeInTheDocument();
  await ue.upload(
    within(dialog).getByLabelText('Task tracker file'),
    new NodeFile(['Task Title\nA\n'], 'new.xlsx') as unknown as File,
  );
  await ue.click(button('Replace', dialog));

  expect(mockCalls).toHaveLength(1);
  expect(mockCalls[0].path).toBe('/task-trackers/t2/import');
  expect(mockCalls[0].options.method).toBe('PUT');
  expect(mockCalls[0].fields).toEqual(['file']);
  expect(await within(dialog).findByRole('status')).toHaveTextContent('Uploading… 0%');

  act(() => mockCalls[0].options.onProgress?.(40, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Uploading… 40%');
  expect(within(dialog).getByLabelText('Upload progress')).toBeInTheDocument();
  expect(button('Cancel', dialog)).toBeInTheDocument();
  act(() => mockCalls[0].options.onProgress?.(100, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Importing rows…');
  expect(within(dialog).queryByText('Cancel', { selector: 'button *' })).not.toBeInTheDocument();

  // Escape does not silently abort (nor close) while the server imports
  await ue.keyboard('{Escape}');
  expect(within(dialog).getByRole('status')).toHaveTextContent('Importing rows…');
  expect(closes).toEqual([]);

  holdList = true;
  const before = listRequests;
  await ue.click(button('Stop waiting', dialog));
  expect(await within(dialog).findByText(/The file had been sent, so the import may still finish/)).toBeInTheDocument();
  await waitFor(() => expect(listRequests).toBe(before + 1));
  // no new import until the list is back
  expect(button('Replace', dialog)).toBeDisabled();
  act(() => releaseList());
  await waitFor(() => expect(button('Replace', dialog)).toBeEnabled());
  expect(screen.getByLabelText('templates')).toHaveTextContent('1');
  expect(closes).toEqual([]);
});

it('cancels while the file is still sent: nothing imported, Import again at once', async () => {
  const ue = setupUser();
  renderWithProviders(<TemplateFileModal target={{ kind: 'import', practiceId: 'p1' }} onClose={() => undefined} />, {
    session: sessionFor({ isTevora: true }),
  });
  const dialog = await findDialog();
  await ue.type(within(dialog).getByLabelText('Name'), 'Slow');
  await ue.upload(
    within(dialog).getByLabelText('Task tracker file'),
    new NodeFile(['Task Title\nA\n'], 'new.csv') as unknown as File,
  );
  await ue.click(button('Import', dialog));
  expect(mockCalls[0].fields).toEqual(['name', 'file']);
  act(() => mockCalls[0].options.onProgress?.(10, 100));
  await ue.click(button('Cancel', dialog));
  expect(await within(dialog).findByText('The import was canceled. Nothing was imported.')).toBeInTheDocument();
  expect(button('Import', dialog)).toBeEnabled();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});
