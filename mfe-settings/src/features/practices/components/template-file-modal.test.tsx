import { File as NodeFile } from 'node:buffer';
import { act, screen, within } from '@testing-library/react';
import type { TaskTrackerSummary } from '@portal/shared/core/practices';
import { renderWithProviders } from '@portal/shared/testing';
import type { UploadOptions } from '@portal/shared/web/upload';
import { button, findDialog, sessionFor, setupUser } from '../../../testing/fixtures';
import { TemplateFileModal } from './template-file-modal';

jest.setTimeout(30_000);

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
  id: 't2', practiceId: 'p1', name: 'Draft one', description: '', status: 'draft', taskCount: 4, controlCount: 2, pointOfFocusCount: 0,
  createdBy: null, createdAt: '2026-03-01T10:00:00', updatedAt: '2026-03-02T10:00:00',
};

afterEach(() => {
  mockCalls.length = 0;
});

it('shows the upload percent, then that the rows are imported, and says what a late cancel means', async () => {
  const ue = setupUser();
  renderWithProviders(<TemplateFileModal target={{ kind: 'replace', practiceId: 'p1', tracker: draft }} onClose={() => undefined} />, {
    session: sessionFor({ isTevora: true }),
  });
  const dialog = await findDialog();
  expect(within(dialog).getByText('Replace Draft one from file')).toBeInTheDocument();
  await ue.upload(within(dialog).getByLabelText('Task tracker file'), new NodeFile(['Task Title\nA\n'], 'new.xlsx') as unknown as File);
  await ue.click(button('Replace', dialog));

  expect(mockCalls).toHaveLength(1);
  expect(mockCalls[0].path).toBe('/task-trackers/t2/import');
  expect(mockCalls[0].options.method).toBe('PUT');
  expect(mockCalls[0].fields).toEqual(['file']);
  expect(await within(dialog).findByRole('status')).toHaveTextContent('Uploading… 0%');

  act(() => mockCalls[0].options.onProgress?.(40, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Uploading… 40%');
  expect(within(dialog).getByLabelText('Upload progress')).toBeInTheDocument();
  act(() => mockCalls[0].options.onProgress?.(100, 100));
  expect(within(dialog).getByRole('status')).toHaveTextContent('Importing rows…');

  await ue.click(button('Cancel', dialog));
  expect(await within(dialog).findByText(/The file had been sent, so the import may still finish/)).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});
