import { File as NodeFile } from 'node:buffer';
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { UploadError, type UploadOptions } from '@portal/shared/web/upload';
import { button, findDialog, setupTestServer, setupUser, staffSession } from '../../../testing/fixtures';
import { ImportRequestsDialog } from './import-requests-dialog';

// The upload (XHR, progress) is shared/src/web/upload.ts's: driven by hand here to reach each phase.
type Call = {
  path: string;
  form: FormData;
  options: UploadOptions;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};
const mockCalls: Call[] = [];
jest.mock('@portal/shared/web/upload', () => {
  const actual = jest.requireActual('@portal/shared/web/upload');
  return {
    ...actual,
    uploadForm: (path: string, form: FormData, options: UploadOptions) =>
      new Promise((resolve, reject) => {
        mockCalls.push({ path, form, options, resolve, reject });
        options.signal?.addEventListener('abort', () => reject(new DOMException('canceled', 'AbortError')));
      }),
  };
});

setupTestServer(
  http.get('*/api/v1/companies/c1/requests', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 25 })),
);

let toasts: ToastMessage[] = [];
const subscription = toast$.subscribe((t) => toasts.push(t));
afterAll(() => subscription.unsubscribe());
beforeEach(() => {
  mockCalls.length = 0;
  toasts = [];
});

const csv = (name: string, text = 'Title\nFirewall review\n') => new NodeFile([text], name) as unknown as File;

function renderDialog() {
  const closes: string[] = [];
  renderWithProviders(<ImportRequestsDialog companyId="c1" onClose={() => closes.push('close')} />, {
    session: staffSession,
  });
  return closes;
}

describe('Import requests', () => {
  it('offers the templates, checks the file before sending and imports it', async () => {
    // a file the input's accept list would hide (a drop, a paste) is still checked
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0, applyAccept: false });
    const closes = renderDialog();
    const dialog = await findDialog();
    expect(within(dialog).getByText('Import requests')).toBeInTheDocument();
    expect(within(dialog).getByText('CSV template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/companies/c1/requests/file-template?format=csv',
    );
    expect(within(dialog).getByText('XLSX template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/companies/c1/requests/file-template?format=xlsx',
    );

    await user.click(button('Import', dialog));
    expect(await within(dialog).findByText('Choose a .csv or .xlsx file.')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('Requests file');
    await user.upload(input, csv('requests.xls'));
    expect(await within(dialog).findByText('Only .xlsx files are accepted.')).toBeInTheDocument();
    await user.upload(input, csv('empty.csv', ''));
    expect(await within(dialog).findByText('empty.csv is empty: there is nothing to import.')).toBeInTheDocument();
    expect(mockCalls).toHaveLength(0);

    await user.upload(input, csv('requests.csv'));
    expect(within(dialog).getByText('requests.csv')).toBeInTheDocument();
    await user.click(button('Import', dialog));
    expect(mockCalls[0].path).toBe('/companies/c1/requests/import');
    expect((mockCalls[0].form.get('file') as File).name).toBe('requests.csv');
    act(() => mockCalls[0].options.onProgress?.(40, 100));
    expect(within(dialog).getByRole('status')).toHaveTextContent('Uploading… 40%');
    act(() => mockCalls[0].resolve({ rows: 3, created: 3, references: ['REQ-0001', 'REQ-0002', 'REQ-0003'] }));
    await waitFor(() => expect(closes).toEqual(['close']));
    expect(toasts).toContainEqual({ severity: 'success', summary: '3 requests imported' });
  });

  it('lists the rows and columns of a refused file, and imports nothing', async () => {
    const user = setupUser();
    const closes = renderDialog();
    const dialog = await findDialog();
    await user.upload(within(dialog).getByLabelText('Requests file'), csv('requests.csv'));
    await user.click(button('Import', dialog));
    const details = [
      { field: 'file', message: 'Row 3, Due Date: 2026-02-31 is not a day of the calendar' },
      { field: 'file', message: 'Row 5, Assignees: nobody@acme.test is not an active member of the company' },
    ];
    act(() =>
      mockCalls[0].reject(
        new UploadError(400, 'malformed_request_file', details[0].message, details, details[0].message),
      ),
    );
    const alert = await within(dialog).findByText('Row 3, Due Date: 2026-02-31 is not a day of the calendar');
    expect(alert.closest('[role="alert"]')).toHaveTextContent(
      'Row 5, Assignees: nobody@acme.test is not an active member of the company',
    );
    expect(closes).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('cancels an upload under way: nothing is imported and the dialog stays', async () => {
    const user = setupUser();
    const closes = renderDialog();
    const dialog = await findDialog();
    await user.upload(within(dialog).getByLabelText('Requests file'), csv('requests.csv'));
    await user.click(button('Import', dialog));
    act(() => mockCalls[0].options.onProgress?.(10, 100));
    // Escape does not abort silently: only the footer's Cancel does
    await user.keyboard('{Escape}');
    expect(closes).toEqual([]);
    await user.click(button('Cancel', dialog));
    expect(await within(dialog).findByText('The import was canceled. Nothing was imported.')).toBeInTheDocument();
    expect(button('Import', dialog)).toBeEnabled();
    expect(closes).toEqual([]);
  });
});
