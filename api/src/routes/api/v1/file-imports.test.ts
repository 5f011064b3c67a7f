/**
 * The import routes read their file in a parse worker (lib/spreadsheet-pool.ts): while one reads a
 * large file, the api goes on answering. Over real HTTP (the app listening on a free port), as the
 * security review measured it: a task import of a header and 99,999 rows of `,` kept
 * GET /api/v1/health waiting for 8 to 10 s.
 *
 * What holds here holds on any machine: the file is read to its end, never by this thread's sheet reader
 * (spied on: a route that read the file itself would read it on the event loop), and health checks are
 * answered while the import runs. How long a check waits meanwhile is a time, measured by
 * `npm run bench:requests` (bench/request-files) against its budget, not here.
 */
import { randomUUID } from 'node:crypto';
import { TASK_TRACKER_MAX_LINES, TASK_TRACKER_MAX_ROWS } from '@portal/shared/core/practices';
import { REQUEST_IMPORT_MAX_ROWS } from '@portal/shared/core/requests';
import { insertPractice } from '../../../db/practices';
import * as spreadsheet from '../../../lib/spreadsheet';
import { createTestApp, type TestApp } from '../../../test/app';
import { multipart } from '../../../test/multipart';
import { inlineXlsx, manyRows, trackerCsv } from '../../../test/task-tracker-files';
import { acmeProjectsSetup, newCompany } from '../../../test/project-fixtures';

/** A file of the finding: the header, then rows of two empty cells, TASK_TRACKER_MAX_LINES rows in all (the most a file may have). */
const ROWS = TASK_TRACKER_MAX_LINES;

/** This thread's sheet reader (every import's readers call it): a parse worker runs its own copy, so this one never runs. */
const readSheetOfThisThread = jest.spyOn(spreadsheet, 'readSheet');

let t: TestApp;
let base: string;
let cookies: Record<string, string>;
let projectId: string;
let practiceId: string;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookies, projectId } = await acmeProjectsSetup(
    t,
    ['Import load project', 'Import load other project'],
    ['consultant@demo.test', 'lead@acme.test'],
  ));
  practiceId = await insertPractice(t.database.db, { name: `Import load ${randomUUID().slice(0, 8)}` });
  companyId = await newCompany(t, `Import load ${randomUUID().slice(0, 8)}`);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The first fetch of a process loads the client itself (undici): not a time of the api's.
  expect((await fetch(`${base}/api/v1/health`)).status).toBe(200);
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs a file as the web does (multipart, the client header, this origin). */
async function post(url: string, cookie: string, filename: string, data: Buffer, fields: Record<string, string> = {}) {
  const { payload, headers } = multipart(Object.entries(fields), [{ field: 'file', filename, data }]);
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    body: payload,
    headers: { ...headers, cookie, 'x-portal-client': 'web', origin: base },
  });
  return { status: res.status, body: (await res.json()) as { code: string; message: string } };
}

/**
 * Sends `send` and, until it is answered, asks GET /api/v1/health over and over: how many checks were
 * answered (each with 200) before the import's answer came.
 */
async function healthWhile<T>(send: () => Promise<T>): Promise<{ answer: T; answered: number }> {
  let done = false;
  const sending = send().finally(() => (done = true));
  let answered = 0;
  while (!done) {
    const res = await fetch(`${base}/api/v1/health`);
    await res.json();
    expect(res.status).toBe(200);
    if (!done) answered += 1;
    await sleep(10);
  }
  return { answer: await sending, answered };
}

/** Read off the event loop: none of this thread's readers ran, and checks were answered meanwhile. */
function expectReadInWorker(answered: number): void {
  expect(readSheetOfThisThread).not.toHaveBeenCalled();
  expect(answered).toBeGreaterThanOrEqual(3);
}

const blankRowsCsv = () => Buffer.from(`Task Title,Task ID\n${',\n'.repeat(ROWS - 1)}`);
const blankRowsXlsx = () =>
  inlineXlsx([['Task Title', 'Task ID'], ...Array.from({ length: ROWS - 1 }, () => ['', ''])]);

describe('the api answers while an import reads a file of 100,000 rows', () => {
  it.each([
    ['.csv', 'tasks.csv', blankRowsCsv],
    ['.xlsx', 'tasks.xlsx', blankRowsXlsx],
  ])(
    'a project task import of a %s',
    async (_label, filename, file) => {
      const data = file();
      const { answer, answered } = await healthWhile(() =>
        post(`/api/v1/projects/${projectId}/tasks/import`, cookies['lead@acme.test'], filename, data),
      );
      // Read to the end (the most rows a file may have), and refused for holding no task.
      expect(answer).toEqual({
        status: 400,
        body: expect.objectContaining({
          code: 'malformed_task_tracker',
          message: 'The file has no tasks: add one row per task under the header row.',
        }),
      });
      // The file was read in a worker while the health checks were answered.
      expectReadInWorker(answered);
    },
    60_000,
  );
});

describe('a file over the row limit is refused, naming the limit', () => {
  const overLimit = () => trackerCsv(manyRows(TASK_TRACKER_MAX_ROWS + 1));
  const taskLimit = `The file has more than ${TASK_TRACKER_MAX_ROWS.toLocaleString('en-US')} rows of tasks: at most ${TASK_TRACKER_MAX_ROWS.toLocaleString('en-US')} are accepted in one file. Split it into several files.`;

  it('by a project task import', async () => {
    expect(
      await post(`/api/v1/projects/${projectId}/tasks/import`, cookies['lead@acme.test'], 'tasks.csv', overLimit()),
    ).toEqual({
      status: 400,
      body: expect.objectContaining({ code: 'malformed_task_tracker', message: taskLimit }),
    });
  });

  it('by a template import', async () => {
    expect(
      await post(
        `/api/v1/practices/${practiceId}/task-trackers/import`,
        cookies['consultant@demo.test'],
        'template.csv',
        overLimit(),
        { name: 'Too long' },
      ),
    ).toEqual({
      status: 400,
      body: expect.objectContaining({ code: 'malformed_task_tracker', message: taskLimit }),
    });
  });

  it('by a request import, of a file of 100,000 rows too, while the api answers', async () => {
    const limit = REQUEST_IMPORT_MAX_ROWS.toLocaleString('en-US');
    const requests = Buffer.from(
      `Title,Reference\n${Array.from({ length: REQUEST_IMPORT_MAX_ROWS + 1 }, (_, i) => `Request ${i},\n`).join('')}`,
    );
    expect(
      await post(
        `/api/v1/companies/${companyId}/requests/import`,
        cookies['consultant@demo.test'],
        'requests.csv',
        requests,
      ),
    ).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'malformed_request_file',
        message: `The file has more than ${limit} requests: at most ${limit} are accepted in one file. Split it into several files.`,
      }),
    });

    const blank = Buffer.from(`Title,Reference\n${',\n'.repeat(ROWS - 1)}`);
    const { answer, answered } = await healthWhile(() =>
      post(`/api/v1/companies/${companyId}/requests/import`, cookies['consultant@demo.test'], 'requests.csv', blank),
    );
    expect(answer).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'malformed_request_file',
        message: expect.stringMatching(/^The file has more than 25,000 rows, blank ones included/),
      }),
    });
    expectReadInWorker(answered);
  }, 60_000);
});
