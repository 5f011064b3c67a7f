import { session$, toast$, type SessionEvent, type ToastMessage } from '@portal/shared/web/events';
import { downloadFromApi, downloadSignedFile, fileNameFromDisposition, startSignedDownload } from './download';
import { UploadError } from './upload';

const realFetch = globalThis.fetch;
let calls: { url: string; init: RequestInit | undefined }[] = [];
let reply: () => Response | Promise<Response>;
const clicked: { href: string; download: string }[] = [];
const toasts: ToastMessage[] = [];
const events: SessionEvent[] = [];
const subscriptions = [toast$.subscribe((t) => toasts.push(t)), session$.subscribe((e) => events.push(e))];

beforeAll(() => {
  globalThis.fetch = jest.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return reply();
  }) as typeof fetch;
  URL.createObjectURL = jest.fn(() => 'blob:made');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
});
afterAll(() => {
  globalThis.fetch = realFetch;
  subscriptions.forEach((s) => s.unsubscribe());
  jest.restoreAllMocks();
});
beforeEach(() => {
  calls = [];
  clicked.length = 0;
  toasts.length = 0;
  events.length = 0;
});

describe('downloadFromApi', () => {
  it('fetches with the session and the client header, and saves the blob under the server’s file name', async () => {
    reply = () =>
      new Response('a,b\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="SOC 2.csv"' } });
    await expect(downloadFromApi('/task-trackers/t1/export?format=csv', 'fallback.csv')).resolves.toBe(true);
    expect(calls[0].url).toBe('/api/v1/task-trackers/t1/export?format=csv');
    expect(calls[0].init?.credentials).toBe('include');
    expect((calls[0].init?.headers as Record<string, string>)['X-Portal-Client']).toBe('web');
    expect(clicked).toEqual([{ href: 'blob:made', download: 'SOC 2.csv' }]);
    expect(toasts).toEqual([]);
  });

  it('falls back to the given name', async () => {
    reply = () => new Response('x', { status: 200 });
    await downloadFromApi('/x', 'Baseline.xlsx');
    expect(clicked).toEqual([{ href: 'blob:made', download: 'Baseline.xlsx' }]);
  });

  it('toasts the catalogue’s text of a refusal and downloads nothing', async () => {
    reply = () => Response.json({ code: 'task_tracker_not_found', message: 'gone', requestId: 'r1' }, { status: 404 });
    await expect(downloadFromApi('/x', 'a.csv')).resolves.toBe(false);
    expect(clicked).toEqual([]);
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ severity: 'error', detail: 'No templates found for the chosen practice.' });
  });

  it('sends the user to sign-in on a 401, and says when the connection was lost', async () => {
    reply = () => Response.json({ code: 'unauthorized', message: '' }, { status: 401 });
    await expect(downloadFromApi('/x', 'a.csv')).resolves.toBe(false);
    expect(events).toEqual([{ type: 'unauthorized' }]);
    expect(toasts).toEqual([]);
    reply = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(downloadFromApi('/x', 'a.csv')).resolves.toBe(false);
    expect(toasts).toEqual([
      { severity: 'error', summary: 'Download failed', detail: 'The connection was lost. Try again.' },
    ]);
  });
});

describe('signed-link downloads', () => {
  const signed = { url: '/api/v1/files/f1/content?sig=abc', expiresAt: '2026-03-02T16:00:00.000Z', name: 'rules.pdf' };

  it('asks the signed link of the file (a version, a passphrase when given) and lets the browser fetch it', async () => {
    reply = () => Response.json(signed);
    await expect(downloadSignedFile('f 1')).resolves.toBe(true);
    expect(calls[0].url).toBe('/api/v1/files/f%201/signed-url');
    expect(calls[0].init?.credentials).toBe('include');
    expect((calls[0].init?.headers as Record<string, string>)['X-Portal-Client']).toBe('web');
    expect(clicked).toEqual([{ href: '/api/v1/files/f1/content?sig=abc', download: 'rules.pdf' }]);

    await expect(startSignedDownload('f1', { versionId: 'v 2', passphrase: 'open sesame' })).resolves.toEqual(signed);
    expect(calls[1].url).toBe('/api/v1/files/f1/signed-url?versionId=v%202');
    expect((calls[1].init?.headers as Record<string, string>)['x-transfer-passphrase']).toBe('open sesame');
    expect(clicked).toHaveLength(2);
    expect(toasts).toEqual([]);
  });

  it('rejects with the api’s code and the catalogue’s text, so a screen can act on it', async () => {
    reply = () =>
      Response.json({ code: 'transfer_passphrase_incorrect', message: 'nope', requestId: 'r1' }, { status: 403 });
    const failure = await startSignedDownload('f1', { passphrase: 'wrong' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UploadError);
    expect(failure).toMatchObject({
      status: 403,
      code: 'transfer_passphrase_incorrect',
      message: 'The passphrase is not correct.',
    });
    expect(clicked).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('reports a refusal or a lost connection as a toast and downloads nothing', async () => {
    reply = () => Response.json({ code: 'file_not_found', message: 'gone', requestId: 'r1' }, { status: 404 });
    await expect(downloadSignedFile('f1')).resolves.toBe(false);
    reply = () => Response.json({ code: 'some_new_code', message: 'The api’s own words' }, { status: 409 });
    await expect(downloadSignedFile('f1')).resolves.toBe(false);
    reply = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(downloadSignedFile('f1')).resolves.toBe(false);
    expect(toasts).toEqual([
      { severity: 'error', summary: 'The download could not start', detail: 'File not found.' },
      { severity: 'error', summary: 'The download could not start', detail: 'The api’s own words' },
      { severity: 'error', summary: 'The download could not start', detail: 'The connection was lost. Try again.' },
    ]);
    expect(clicked).toEqual([]);
  });

  it('sends the user to sign-in on a 401 without a toast', async () => {
    reply = () => Response.json({ code: 'unauthorized', message: '' }, { status: 401 });
    await expect(downloadSignedFile('f1')).resolves.toBe(false);
    expect(events).toEqual([{ type: 'unauthorized' }]);
    expect(toasts).toEqual([]);
    expect(clicked).toEqual([]);
  });
});

describe('fileNameFromDisposition', () => {
  it('prefers filename*, unquotes filename, and drops path parts', () => {
    expect(fileNameFromDisposition('attachment; filename="a.csv"; filename*=UTF-8\'\'Caf%C3%A9%20plan.xlsx')).toBe(
      'Café plan.xlsx',
    );
    expect(fileNameFromDisposition('attachment; filename="say \\"hi\\".csv"')).toBe('say "hi".csv');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/x.csv"')).toBe('x.csv');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
