import { session$, type SessionEvent } from '@portal/shared/web/events';
import { fileBytesSent, UploadError, uploadForm } from './upload';

/** A hand-driven XMLHttpRequest: the test decides when bytes go out and what the api answers. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static created = 0;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  sent: unknown = undefined;
  aborted = false;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
    FakeXhr.created += 1;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => {
  FakeXhr.last = null;
  FakeXhr.created = 0;
  (globalThis as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
});
afterAll(() => {
  globalThis.XMLHttpRequest = realXhr;
});

const xhr = () => {
  if (!FakeXhr.last) throw new Error('no request was made');
  return FakeXhr.last;
};
const form = () => {
  const f = new FormData();
  f.append('name', 'x');
  return f;
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );

describe('uploadForm', () => {
  it('posts by default, puts when asked, with credentials and the client header, and resolves with the body', async () => {
    const posted = uploadForm<{ id: string }>('/things', form());
    expect(xhr().method).toBe('POST');
    expect(xhr().url).toBe('/api/v1/things');
    expect(xhr().withCredentials).toBe(true);
    expect(xhr().headers['X-Portal-Client']).toBe('web');
    expect(xhr().sent).toBeInstanceOf(FormData);
    xhr().answer(201, { id: 't1' });
    await expect(posted).resolves.toEqual({ id: 't1' });

    const put = uploadForm('/things/t1', form(), { method: 'PUT' });
    expect(xhr().method).toBe('PUT');
    xhr().answer(204, null);
    await expect(put).resolves.toBeNull();
  });

  it('reports the bytes sent', async () => {
    const seen: [number, number][] = [];
    const p = uploadForm('/things', form(), { onProgress: (sent, total) => seen.push([sent, total]) });
    xhr().progress(10, 100);
    xhr().upload.onprogress?.({ lengthComputable: false, loaded: 5, total: 0 });
    xhr().progress(100, 100);
    xhr().answer(200, {});
    await p;
    expect(seen).toEqual([
      [10, 100],
      [100, 100],
    ]);
  });

  it('sends nothing when already aborted, and rejects with an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    const e = await failure(uploadForm('/things', form(), { signal: controller.signal }));
    expect(e).toBeInstanceOf(DOMException);
    expect((e as DOMException).name).toBe('AbortError');
    expect(FakeXhr.created).toBe(0);
  });

  it('aborts mid-upload at once, with an AbortError', async () => {
    const controller = new AbortController();
    const p = uploadForm('/things', form(), { signal: controller.signal });
    xhr().progress(50, 100);
    controller.abort();
    const e = await failure(p);
    expect((e as DOMException).name).toBe('AbortError');
    expect(xhr().aborted).toBe(true);
  });

  it('names the field’s reason first, then the catalogue’s text, then the server’s message', async () => {
    let p = uploadForm('/things', form());
    xhr().answer(400, {
      code: 'malformed_task_tracker',
      message: 'Bad file',
      details: [{ field: 'file', message: 'Row 2: Task Title is required' }],
    });
    let e = (await failure(p)) as UploadError;
    expect(e).toBeInstanceOf(UploadError);
    expect(e.status).toBe(400);
    expect(e.code).toBe('malformed_task_tracker');
    expect(e.message).toBe('Row 2: Task Title is required');
    expect(e.details).toEqual([{ field: 'file', message: 'Row 2: Task Title is required' }]);
    expect(e.serverMessage).toBe('Bad file');

    p = uploadForm('/things', form());
    xhr().answer(400, { code: 'task_reference_id_already_exist_on_project', message: 'server words' });
    e = (await failure(p)) as UploadError;
    expect(e.message).toBe('Task IDs must be unique or null');

    p = uploadForm('/things', form());
    xhr().answer(400, { code: 'not_in_the_catalogue', message: 'server words' });
    e = (await failure(p)) as UploadError;
    expect(e.message).toBe('server words');
    expect(e.code).toBe('not_in_the_catalogue');

    p = uploadForm('/things', form());
    xhr().answer(500, 'not json');
    e = (await failure(p)) as UploadError;
    expect(e.message).toBe('The upload failed. Try again.');
  });

  it('says to wait on a bare 429, and that the connection was lost on a network error', async () => {
    let p = uploadForm('/things', form());
    xhr().answer(429, null);
    let e = (await failure(p)) as UploadError;
    expect(e.status).toBe(429);
    expect(e.message).toBe('Too Many Requests: Please wait a moment until you can send requests again.');

    p = uploadForm('/things', form());
    xhr().onerror?.();
    e = (await failure(p)) as UploadError;
    expect(e.status).toBe(0);
    expect(e.message).toMatch(/connection was lost/);
  });

  it('sends the user to sign-in on a 401, like the api’s other calls', async () => {
    const events: SessionEvent[] = [];
    const subscription = session$.subscribe((ev) => events.push(ev));
    try {
      let p = uploadForm('/things', form());
      xhr().answer(403, { code: 'forbidden', message: 'no' });
      await failure(p);
      expect(events).toEqual([]);
      p = uploadForm('/things', form());
      xhr().answer(401, { code: 'unauthorized', message: 'Sign in' });
      const e = (await failure(p)) as UploadError;
      expect(e.status).toBe(401);
      expect(events).toEqual([{ type: 'unauthorized' }]);
    } finally {
      subscription.unsubscribe();
    }
  });
});

describe('fileBytesSent', () => {
  it("counts a file's own bytes, not the multipart body's that carries it", () => {
    // a 38-byte file travels in a 457-byte body
    expect(fileBytesSent(0, 457, 38)).toBe(0);
    expect(fileBytesSent(228, 457, 38)).toBe(18);
    expect(fileBytesSent(457, 457, 38)).toBe(38);
  });

  it('never reads more than the file, nor anything before the browser knows the total', () => {
    expect(fileBytesSent(500, 457, 38)).toBe(38);
    expect(fileBytesSent(10, 0, 38)).toBe(0);
  });
});
