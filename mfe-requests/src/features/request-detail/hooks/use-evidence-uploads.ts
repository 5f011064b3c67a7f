import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useDispatch } from '@portal/shared/web/store';
import { fileBytesSent, uploadForm, UploadError } from '@portal/shared/web/upload';
import { fileDisplayName, formatBytes, UPLOAD_MAX_BYTES_DEFAULT } from '@portal/shared/core/files';
import type { RequestFile } from '@portal/shared/core/requests';
import { invalidateAfterUpload } from '../../../app/requests-api';

/** Files sent at once; the others wait their turn. */
export const MAX_PARALLEL_UPLOADS = 3;

export type EvidenceUploadStatus = 'queued' | 'uploading' | 'done' | 'canceled' | 'error';

/** One file's row under the drop zone. */
export interface EvidenceUpload {
  key: string;
  name: string;
  status: EvidenceUploadStatus;
  sent: number;
  total: number;
  /** Why it failed. */
  message?: string;
  /** The files the api stored from it (once done): the row goes once the request's file list shows them. */
  fileIds?: string[];
}

interface Job {
  key: string;
  file: File;
  controller: AbortController;
}

type Dispatch = ReturnType<typeof useDispatch>;

/** Refusals that hold for every file of the request (its status): the files still waiting fail with them. */
const REQUEST_WIDE = new Set([
  'request_under_review',
  'request_is_closed',
  'request_not_found',
  'module_access_denied',
  'forbidden',
]);

/** What the browser can tell before sending (the api checks again, and the content). */
export function evidenceProblem(file: { size: number }): string | null {
  if (file.size === 0) return 'The file is empty: there is nothing to upload.';
  if (file.size > UPLOAD_MAX_BYTES_DEFAULT)
    return `The file is larger than ${formatBytes(UPLOAD_MAX_BYTES_DEFAULT)}, the most a file may be.`;
  return null;
}

let nextKey = 0;

export const isActiveUpload = (status: EvidenceUploadStatus) => status === 'queued' || status === 'uploading';

/** Queues with a file queued or uploading: leaving the page then asks first. */
const busyQueues = new Set<EvidenceQueue>();
function warnBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // older browsers show the prompt only when returnValue is set
  event.returnValue = '';
}
function syncUnloadPrompt(queue: EvidenceQueue, busy: boolean) {
  const had = busyQueues.size > 0;
  if (busy) busyQueues.add(queue);
  else busyQueues.delete(queue);
  if (!had && busyQueues.size > 0) window.addEventListener('beforeunload', warnBeforeUnload);
  else if (had && busyQueues.size === 0) window.removeEventListener('beforeunload', warnBeforeUnload);
}

/**
 * The evidence uploads of ONE request. It lives outside the page, so the uploads go on (and their rows
 * come back) when the user opens another request and returns; every file goes to the request the queue
 * belongs to, and its rows show only on that request's page.
 */
class EvidenceQueue {
  items: EvidenceUpload[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly waiting: Job[] = [];
  private readonly running = new Map<string, Job>();
  /** The files the request's list showed last. */
  private listed = new Set<string>();

  constructor(
    private readonly requestId: string,
    private readonly dispatch: Dispatch,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.items;

  private setItems(next: EvidenceUpload[]) {
    // a finished upload whose files the list shows is said there: its row goes
    const shown = next.filter(
      (i) => !(i.status === 'done' && i.fileIds?.length && i.fileIds.every((id) => this.listed.has(id))),
    );
    if (shown.length === this.items.length && shown.every((i, at) => i === this.items[at])) return;
    this.items = shown;
    syncUnloadPrompt(
      this,
      shown.some((i) => isActiveUpload(i.status)),
    );
    for (const l of this.listeners) l();
  }

  private patch(key: string, changes: Partial<EvidenceUpload>) {
    this.setItems(this.items.map((i) => (i.key === key ? { ...i, ...changes } : i)));
  }

  private pump() {
    while (this.running.size < MAX_PARALLEL_UPLOADS && this.waiting.length) {
      const job = this.waiting.shift() as Job;
      this.running.set(job.key, job);
      this.patch(job.key, { status: 'uploading', sent: 0, total: job.file.size });
      const form = new FormData();
      form.append('files', job.file, job.file.name);
      uploadForm<{ results?: RequestFile[] }>(`/requests/${encodeURIComponent(this.requestId)}/files`, form, {
        signal: job.controller.signal,
        onProgress: (sent, total) =>
          this.patch(job.key, { sent: fileBytesSent(sent, total, job.file.size), total: job.file.size }),
      })
        .then(
          (reply) => {
            this.patch(job.key, {
              status: 'done',
              sent: job.file.size,
              total: job.file.size,
              fileIds: (reply?.results ?? []).map((f) => f.id),
            });
            this.dispatch(invalidateAfterUpload(this.requestId));
          },
          (error: unknown) => {
            if (error instanceof DOMException && error.name === 'AbortError') {
              this.patch(job.key, { status: 'canceled' });
              return;
            }
            const message = error instanceof Error ? error.message : 'The upload failed. Try again.';
            this.patch(job.key, { status: 'error', message });
            if (error instanceof UploadError && error.code && REQUEST_WIDE.has(error.code)) {
              // the request moved on (submitted, closed): the others would be refused alike, and the page shows why
              const dropped = new Set(this.waiting.splice(0).map((d) => d.key));
              this.setItems(this.items.map((i) => (dropped.has(i.key) ? { ...i, status: 'error', message } : i)));
              this.dispatch(invalidateAfterUpload(this.requestId));
            }
          },
        )
        .finally(() => {
          this.running.delete(job.key);
          this.pump();
        });
    }
  }

  add = (files: File[]) => {
    const jobs = files.map((file): Job => ({
      key: `evidence-${(nextKey += 1)}`,
      file,
      controller: new AbortController(),
    }));
    this.setItems([
      ...this.items,
      ...jobs.map((j): EvidenceUpload => {
        const problem = evidenceProblem(j.file);
        return {
          key: j.key,
          name: fileDisplayName(j.file.name),
          status: problem ? 'error' : 'queued',
          sent: 0,
          total: j.file.size,
          message: problem ?? undefined,
        };
      }),
    ]);
    this.waiting.push(...jobs.filter((j) => !evidenceProblem(j.file)));
    this.pump();
  };

  cancel = (key: string) => {
    const at = this.waiting.findIndex((j) => j.key === key);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      this.patch(key, { status: 'canceled' });
      return;
    }
    this.running.get(key)?.controller.abort();
  };

  /** Takes away the row of a finished upload (a failed one stays until then). */
  dismiss = (key: string) => {
    this.setItems(this.items.filter((i) => i.key !== key || isActiveUpload(i.status)));
  };

  clearFinished = () => {
    this.setItems(this.items.filter((i) => isActiveUpload(i.status)));
  };

  /** The request's file list as shown now: finished uploads it shows lose their rows. */
  showListed(fileIds: readonly string[]) {
    this.listed = new Set(fileIds);
    this.setItems(this.items);
  }
}

/** The queues of each store (one per app, one per test), by request. */
const queues = new WeakMap<object, Map<string, EvidenceQueue>>();
function queueOf(dispatch: Dispatch, requestId: string): EvidenceQueue {
  let byRequest = queues.get(dispatch);
  if (!byRequest) {
    byRequest = new Map();
    queues.set(dispatch, byRequest);
  }
  let queue = byRequest.get(requestId);
  if (!queue) {
    queue = new EvidenceQueue(requestId, dispatch);
    byRequest.set(requestId, queue);
  }
  return queue;
}

/**
 * The evidence uploads of one request: each file sent on its own (multipart field `files`) to
 * POST /requests/:id/files with its progress, at most MAX_PARALLEL_UPLOADS at once, each cancelable;
 * after each upload the request, its history and the list refresh, and the file's row goes once the
 * request's files (`listedFileIds`) show it. A refusal stays on the file's row (the api's reason: type,
 * size, the request under review or closed) until dismissed. `busy` while files are queued or on their
 * way (the page holds Submit back meanwhile); leaving the page then asks first. The uploads belong to
 * the request, not to the screen: another request's page never shows them, and they go on when the
 * user looks elsewhere.
 */
export function useEvidenceUploads(requestId: string, listedFileIds: readonly string[]) {
  const dispatch = useDispatch();
  const queue = useMemo(() => queueOf(dispatch, requestId), [dispatch, requestId]);
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const listedKey = listedFileIds.join('\n');
  useEffect(() => {
    queue.showListed(listedKey ? listedKey.split('\n') : []);
  }, [queue, listedKey]);
  const busy = items.some((i) => isActiveUpload(i.status));
  return {
    items,
    busy,
    add: queue.add,
    cancel: queue.cancel,
    dismiss: queue.dismiss,
    clearFinished: queue.clearFinished,
  };
}

export type EvidenceUploads = ReturnType<typeof useEvidenceUploads>;
