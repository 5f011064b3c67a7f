import { TASK_TRACKER_MAX_LINES, TASK_TRACKER_MAX_ROWS } from '@portal/shared/core/practices';
import { REQUEST_IMPORT_MAX_ROWS } from '@portal/shared/core/requests';
import { requestCsv } from '../test/request-files';
import { manyRows, trackerCsv, trackerXlsx } from '../test/task-tracker-files';
import { HttpError } from './http-error';
import { parseRequestFile, readRequestFile } from '../modules/imports/request-file';
import { PARALLEL_PARSES, PARSE_THREADS, closeParsePool, withParseSlot } from './spreadsheet-pool';
import { parseTaskTrackerFile, readTaskTrackerFile } from '../modules/task-trackers/task-tracker-file';

afterAll(() => closeParsePool());

/** The error a read throws (it must throw). */
async function failure(read: Promise<unknown>): Promise<HttpError> {
  const error = await read.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

const count = (n: number) => n.toLocaleString('en-US');

describe('reading in a parse worker', () => {
  const rows = [
    {
      'Task ID': 'T-1',
      'Task Title': 'Review the policy',
      'Control ID': 'AC-1',
      'Points of Focus': 'Approved; Reviewed',
    },
    { 'Task ID': 'T-1.1', 'Parent Task ID': 'T-1', 'Task Title': 'Collect evidence', 'Control ID': 'AC-1' },
    { 'Task ID': 'T-2', 'Parent Task ID': 'P-9', 'Task Title': 'A subtask of a project task' },
  ];

  it('gives the content this thread would read, as plain data, for a .csv and an .xlsx', async () => {
    const csv = trackerCsv(rows);
    const xlsx = await trackerXlsx(rows);
    const here = await parseTaskTrackerFile('t.csv', csv, { externalParents: true });
    await expect(readTaskTrackerFile('t.csv', csv, { externalParents: true })).resolves.toEqual(here);
    await expect(readTaskTrackerFile('t.xlsx', xlsx, { externalParents: true })).resolves.toEqual(here);
    const requests = requestCsv([{ Title: 'Firewall review', Priority: 'High', 'Due Date': '2026-03-31' }]);
    await expect(readRequestFile('r.csv', requests)).resolves.toEqual(await parseRequestFile('r.csv', requests));
  });

  it('passes the options on: without externalParents, an unknown parent is a row problem', async () => {
    const error = await failure(readTaskTrackerFile('t.csv', trackerCsv(rows)));
    expect(error).toMatchObject({
      statusCode: 400,
      code: 'malformed_task_tracker',
      message: 'Row 4, Parent Task ID: no row of the file has the Task ID "P-9".',
    });
  });

  it('throws the HttpError the reader threw, details, status and code included', async () => {
    const bad = trackerCsv([
      { 'Task ID': 'T-1' },
      { 'Task Title': 'ok' },
      { 'Task ID': 'x'.repeat(51), 'Task Title': 'ok' },
    ]);
    const expected = await failure(parseTaskTrackerFile('t.csv', bad));
    const error = await failure(readTaskTrackerFile('t.csv', bad));
    expect(error).toMatchObject({
      statusCode: expected.statusCode,
      code: expected.code,
      message: expected.message,
      details: expected.details,
    });
    expect(error.details).toHaveLength(2);

    expect(await failure(readTaskTrackerFile('t.txt', bad))).toMatchObject({ statusCode: 415, code: 'no_csv_file' });
    expect(await failure(readRequestFile('r.xls', bad))).toMatchObject({ statusCode: 415, code: 'no_excel_file' });
  });

  it('refuses a file over the row limit, naming the limit', async () => {
    const tasks = await failure(readTaskTrackerFile('t.csv', trackerCsv(manyRows(TASK_TRACKER_MAX_ROWS + 1))));
    expect(tasks).toMatchObject({ statusCode: 400, code: 'malformed_task_tracker' });
    expect(tasks.message).toBe(
      `The file has more than ${count(TASK_TRACKER_MAX_ROWS)} rows of tasks: at most ${count(TASK_TRACKER_MAX_ROWS)} are accepted in one file. Split it into several files.`,
    );
  });

  it('refuses a file over the limit of rows in all, blank ones included, naming the limits', async () => {
    const blank = await failure(
      readTaskTrackerFile('t.csv', Buffer.from(`Task Title\n${',\n'.repeat(TASK_TRACKER_MAX_LINES)}`)),
    );
    expect(blank.message).toMatch(
      new RegExp(`^The file has more than ${count(TASK_TRACKER_MAX_LINES)} rows, blank ones included`),
    );

    const requests = await failure(
      readRequestFile(
        'r.csv',
        requestCsv(Array.from({ length: REQUEST_IMPORT_MAX_ROWS + 1 }, (_, i) => ({ Title: `Request ${i}` }))),
      ),
    );
    expect(requests).toMatchObject({ statusCode: 400, code: 'malformed_request_file' });
    expect(requests.message).toContain(`more than ${count(REQUEST_IMPORT_MAX_ROWS)} requests`);
  });

  it('starts a new pool after the app closed the last one', async () => {
    await closeParsePool();
    await expect(readTaskTrackerFile('t.csv', Buffer.from('Task Title\nOne\n'))).resolves.toMatchObject({ rows: 1 });
  });
});

describe('withParseSlot', () => {
  it('has a parse slot per worker thread, half the cores and at least one', () => {
    expect(PARALLEL_PARSES).toBe(PARSE_THREADS);
    expect(PARSE_THREADS).toBeGreaterThanOrEqual(1);
  });

  it('runs at most PARALLEL_PARSES parses at once: the next waits for one to end, first come first served', async () => {
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const parse = (n: number) =>
      withParseSlot(async () => {
        started.push(n);
        await new Promise<void>((resolve) => finish.set(n, resolve));
        return n;
      });
    const all = Array.from({ length: PARALLEL_PARSES + 2 }, (_, i) => i + 1);
    const done = all.map(parse);
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const end = async (n: number) => {
      finish.get(n)!();
      await expect(done[n - 1]).resolves.toBe(n);
      await turn();
    };
    await turn();
    expect(started).toEqual(all.slice(0, PARALLEL_PARSES));
    // The last one to start ends first: the first one waiting takes its slot.
    await end(PARALLEL_PARSES);
    expect(started).toEqual(all.slice(0, PARALLEL_PARSES + 1));
    // Then the one started first (or, with one slot, the one running): the last one waiting starts.
    await end(PARALLEL_PARSES > 1 ? 1 : PARALLEL_PARSES + 1);
    expect(started).toEqual(all);
    for (const n of all) finish.get(n)!();
    await expect(Promise.all(done)).resolves.toEqual(all);
  });

  it('frees the slot when a parse fails', async () => {
    const failures = Array.from({ length: PARALLEL_PARSES + 1 }, () =>
      withParseSlot(() => Promise.reject(new Error('bad file'))),
    );
    await Promise.all(failures.map((f) => expect(f).rejects.toThrow('bad file')));
    await expect(withParseSlot(async () => 'next')).resolves.toBe('next');
  });
});
