import { act, renderHook } from '@testing-library/react';
import { UploadError } from './upload';
import {
  apiProblemReport,
  fileTemplateUrl,
  IMPORT_CANCELED,
  problemReport,
  STOPPED_WAITING,
  trackerFileProblem,
  uploadProblemReport,
  useUploadPhase,
} from './task-tracker-import';

describe('the file check before sending', () => {
  it('names the api’s reason for a wrong extension, and refuses empty and oversized files', () => {
    expect(trackerFileProblem({ name: 'tracker.txt', size: 10 })).toBe(
      'Only CSV files are accepted. This may just require adding a .csv to the filename.',
    );
    expect(trackerFileProblem({ name: 'tracker.xls', size: 10 })).toBe('Only .xlsx files are accepted.');
    expect(trackerFileProblem({ name: 'Tracker.XLSX', size: 10 })).toBeNull();
    expect(trackerFileProblem({ name: 'tracker.csv', size: 0 })).toBe(
      'tracker.csv is empty: there is nothing to import.',
    );
    expect(trackerFileProblem({ name: 'tracker.csv', size: 21 * 1024 * 1024 })).toBe(
      'tracker.csv is larger than 20 MB, the most a task tracker file may be.',
    );
  });

  it('links the file templates', () => {
    expect(fileTemplateUrl('csv')).toBe('/api/v1/task-trackers/file-template?format=csv');
    expect(fileTemplateUrl('xlsx')).toBe('/api/v1/task-trackers/file-template?format=xlsx');
  });
});

describe('problem reports', () => {
  it('uses the catalogue for known codes and lists at most 10 problems', () => {
    const details = Array.from({ length: 13 }, (_, i) => ({
      field: 'file',
      message: `Row ${i + 2}, Task ID: repeated`,
    }));
    const report = problemReport(
      { code: 'task_reference_id_already_exist_on_project', message: 'Row 2, Task ID: repeated', details },
      'x',
    );
    expect(report.title).toBe('Task IDs must be unique or null');
    expect(report.problems).toHaveLength(10);
    expect(report.problems[0]).toBe('Row 2, Task ID: repeated');
    expect(report.more).toBe(3);
  });

  it('shows a malformed file’s server message, else "Malformed Task Tracker File", without repeating it beneath', () => {
    const details = [{ message: 'Row 4: the Task Title column is missing' }, { message: 'Row 5: too long' }];
    expect(
      problemReport(
        { code: 'malformed_task_tracker', message: 'Row 4: the Task Title column is missing', details },
        'x',
      ),
    ).toEqual({
      title: 'Row 4: the Task Title column is missing',
      problems: ['Row 5: too long'],
      more: 0,
    });
    expect(problemReport({ code: 'malformed_task_tracker', message: '' }, 'x').title).toBe(
      'Malformed Task Tracker File',
    );
    expect(problemReport({ code: 'not_known', message: '' }, 'fallback').title).toBe('fallback');
  });

  it('reads an upload’s refusal by the server’s message, not its first detail, leaving out the form’s fields', () => {
    const error = new UploadError(
      400,
      'malformed_task_tracker',
      'Row 2: Task Title is required',
      [
        { field: 'name', message: 'name is required' },
        { field: 'file', message: 'Row 2: Task Title is required' },
        { field: 'file', message: 'Row 3: Task Title is required' },
      ],
      'Row 2: Task Title is required',
    );
    expect(uploadProblemReport(error, 'x', ['name'])).toEqual({
      title: 'Row 2: Task Title is required',
      problems: ['Row 3: Task Title is required'],
      more: 0,
    });
    expect(
      uploadProblemReport(new UploadError(400, 'malformed_task_tracker', 'The upload failed. Try again.'), 'x').title,
    ).toBe('Malformed Task Tracker File');
    expect(
      uploadProblemReport(
        new UploadError(429, null, 'Too Many Requests: Please wait a moment until you can send requests again.'),
        'x',
      ).title,
    ).toMatch(/^Too Many Requests/);
    expect(uploadProblemReport(new Error('boom'), 'The file could not be imported.').title).toBe(
      'The file could not be imported.',
    );
  });

  it('reads an RTK Query failure, and a lost connection', () => {
    expect(
      apiProblemReport({ status: 404, data: { code: 'task_tracker_not_found', message: 'nope' } }, 'x').title,
    ).toBe('No templates found for the chosen practice.');
    expect(
      apiProblemReport({ status: 400, data: { code: 'validation_failed', message: 'taskIds must hold ids' } }, 'x')
        .title,
    ).toBe('taskIds must hold ids');
    expect(apiProblemReport({ status: 'FETCH_ERROR', error: 'TypeError' }, 'x').title).toBe(
      'The connection was lost. Try again.',
    );
  });
});

type Options = { signal: AbortSignal; onProgress: (sent: number, total: number) => void };

describe('the upload’s phases', () => {
  const pending = () => {
    let options: Options | null = null;
    let resolve: (v: string) => void = () => undefined;
    const send = (o: Options) =>
      new Promise<string>((res, reject) => {
        options = o;
        resolve = res;
        o.signal.addEventListener('abort', () => reject(new DOMException('canceled', 'AbortError')));
      });
    return { send, options: () => options as unknown as Options, resolve: (v: string) => resolve(v) };
  };

  it('goes from the upload percent to importing, and resolves with the value', async () => {
    const { result } = renderHook(() => useUploadPhase({ refresh: () => undefined }));
    const upload = pending();
    let outcome: Promise<unknown> = Promise.resolve();
    act(() => {
      outcome = result.current.run(upload.send);
    });
    expect(result.current.phase).toEqual({ step: 'uploading', percent: 0 });
    expect(result.current.sending).toBe(true);
    act(() => upload.options().onProgress(999, 1000));
    expect(result.current.phase).toEqual({ step: 'uploading', percent: 99 });
    act(() => upload.options().onProgress(1000, 1000));
    expect(result.current.phase).toEqual({ step: 'importing' });
    await act(async () => {
      upload.resolve('done');
      await outcome;
    });
    await expect(outcome).resolves.toEqual({ ok: true, value: 'done' });
    expect(result.current.phase).toEqual({ step: 'idle' });
    expect(result.current.notice).toBeNull();
  });

  it('says nothing was imported when canceled during the upload, and refuses a second run meanwhile', async () => {
    const refresh = jest.fn();
    const { result } = renderHook(() => useUploadPhase({ refresh }));
    const upload = pending();
    let outcome: Promise<unknown> = Promise.resolve();
    act(() => {
      outcome = result.current.run(upload.send);
    });
    const second = jest.fn();
    await expect(result.current.run(second)).resolves.toEqual({ ok: false, canceled: true });
    expect(second).not.toHaveBeenCalled();
    await act(async () => {
      result.current.cancel();
      await outcome;
    });
    await expect(outcome).resolves.toEqual({ ok: false, canceled: true });
    expect(result.current.notice).toBe(IMPORT_CANCELED);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('stops waiting once the file was sent: reads the list again, busy until it is back', async () => {
    let listBack: () => void = () => undefined;
    const refresh = jest.fn(() => new Promise<void>((resolve) => (listBack = resolve)));
    const { result } = renderHook(() => useUploadPhase({ refresh }));
    const upload = pending();
    let outcome: Promise<unknown> = Promise.resolve();
    act(() => {
      outcome = result.current.run(upload.send);
    });
    act(() => upload.options().onProgress(10, 10));
    await act(async () => {
      result.current.cancel();
      await Promise.resolve();
    });
    expect(result.current.notice).toBe(STOPPED_WAITING);
    expect(result.current.phase).toEqual({ step: 'refreshing' });
    expect(result.current.busy).toBe(true);
    expect(result.current.sending).toBe(false);
    expect(refresh).toHaveBeenCalledTimes(1);
    await act(async () => {
      listBack();
      await outcome;
    });
    expect(result.current.phase).toEqual({ step: 'idle' });
    expect(result.current.notice).toBe(STOPPED_WAITING);
  });

  it('hands a failure back, and aborts the upload when unmounted', async () => {
    const { result, unmount } = renderHook(() => useUploadPhase({ refresh: () => undefined }));
    let outcome: Promise<unknown> = Promise.resolve();
    await act(async () => {
      outcome = result.current.run(() => Promise.reject(new UploadError(400, 'x', 'bad')));
      await outcome;
    });
    expect(await outcome).toMatchObject({ ok: false, canceled: false });
    const upload = pending();
    act(() => {
      void result.current.run(upload.send);
    });
    unmount();
    expect(upload.options().signal.aborted).toBe(true);
  });
});
