import { session$, toast$, type SessionEvent, type ToastMessage } from '@portal/shared/web/events';
import { downloadFromApi, fileNameFromDisposition } from './download';

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
    reply = () => new Response('a,b\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="SOC 2.csv"' } });
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
    expect(toasts).toEqual([{ severity: 'error', summary: 'Download failed', detail: 'The connection was lost. Try again.' }]);
  });
});

describe('fileNameFromDisposition', () => {
  it('prefers filename*, unquotes filename, and drops path parts', () => {
    expect(fileNameFromDisposition("attachment; filename=\"a.csv\"; filename*=UTF-8''Caf%C3%A9%20plan.xlsx")).toBe('Café plan.xlsx');
    expect(fileNameFromDisposition('attachment; filename="say \\"hi\\".csv"')).toBe('say "hi".csv');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/x.csv"')).toBe('x.csv');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
