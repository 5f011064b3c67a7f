import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useDispatch } from '@portal/shared/web/store';
import { fileDisplayName, type FileList, type ProjectFile } from '@portal/shared/core/files';
import { FILE_CHANGES, filesApi } from '../../../app/files-api';
import { fileBytesSent, uploadForm, UploadError } from '../../../app/upload';
import { sameFileName, uploadProblem } from '../model/upload-checks';

export const MAX_PARALLEL_UPLOADS = 3;

export type UploadStatus = 'checking' | 'queued' | 'uploading' | 'done' | 'canceled' | 'error';

/** One file's row in the upload panel. */
export interface UploadItem {
  key: string;
  name: string;
  /** The folder it goes to, as the panel names it. */
  folderName: string;
  status: UploadStatus;
  sent: number;
  total: number;
  /** Why it failed (the api's message) or was not sent. */
  message?: string;
}

/** Where files go: a folder, and optionally the task they are attached to. */
export interface UploadTarget {
  folderId: string;
  folderName: string;
  taskId?: string;
}

interface Job {
  key: string;
  file: File;
  target: UploadTarget;
  onConflict: 'fail' | 'version';
  controller: AbortController;
}

/** Asks whether a taken name becomes a new version: true, false, or null when the screen asking was left. */
type Asker = (name: string, folderName: string) => Promise<boolean | null>;
type Dispatch = ReturnType<typeof useDispatch>;

let nextKey = 0;
const KEPT = 'Not uploaded: the existing file was kept.';
export const LEFT_BEFORE_CHOOSING =
  'Not uploaded: the screen was left before you chose whether it becomes a new version.';

export const isActiveUpload = (status: UploadStatus) =>
  status === 'checking' || status === 'queued' || status === 'uploading';

/** Queues with a file still checking, queued or uploading: leaving the page then asks first. */
const busyQueues = new Set<UploadQueue>();
function warnBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // older browsers show the prompt only when returnValue is set
  event.returnValue = '';
}
function syncUnloadPrompt(queue: UploadQueue, busy: boolean) {
  const had = busyQueues.size > 0;
  if (busy) busyQueues.add(queue);
  else busyQueues.delete(queue);
  if (!had && busyQueues.size > 0) window.addEventListener('beforeunload', warnBeforeUnload);
  else if (had && busyQueues.size === 0) window.removeEventListener('beforeunload', warnBeforeUnload);
}

/**
 * The uploads of one place (a project's files, a task's files). It lives outside the screens, so the
 * uploads go on (and their rows come back) when the user switches tabs or leaves and comes back; only
 * the "upload as a new version?" question needs a screen, and leaving it answers "not uploaded".
 */
class UploadQueue {
  items: UploadItem[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly queue: Job[] = [];
  /** Files waiting for their look-up or the user's answer. */
  private readonly checking = new Map<string, Job>();
  private readonly running = new Map<string, Job>();
  /** The mounted screens that can ask the user, the latest last. */
  private readonly askers: Asker[] = [];

  constructor(
    private readonly projectId: string,
    private readonly dispatch: Dispatch,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.items;

  private setItems(next: UploadItem[]) {
    this.items = next;
    syncUnloadPrompt(
      this,
      next.some((i) => isActiveUpload(i.status)),
    );
    for (const l of this.listeners) l();
  }

  private patch(key: string, changes: Partial<UploadItem>) {
    this.setItems(this.items.map((i) => (i.key === key ? { ...i, ...changes } : i)));
  }

  addAsker(asker: Asker) {
    this.askers.push(asker);
    return () => {
      const at = this.askers.indexOf(asker);
      if (at >= 0) this.askers.splice(at, 1);
    };
  }

  private ask(name: string, folderName: string): Promise<boolean | null> {
    const asker = this.askers.at(-1);
    return asker ? asker(name, folderName) : Promise.resolve(null);
  }

  private answered(job: Job, answer: boolean | null): boolean {
    if (answer === null) this.patch(job.key, { status: 'canceled', message: LEFT_BEFORE_CHOOSING });
    else if (!answer) this.patch(job.key, { status: 'canceled', message: KEPT });
    return answer === true;
  }

  private pump() {
    while (this.running.size < MAX_PARALLEL_UPLOADS && this.queue.length) {
      const job = this.queue.shift() as Job;
      this.running.set(job.key, job);
      this.patch(job.key, { status: 'uploading', sent: 0, total: job.file.size });
      // text fields before the file: the api reads them first
      const form = new FormData();
      form.append('folderId', job.target.folderId);
      form.append('onConflict', job.onConflict);
      if (job.target.taskId) form.append('taskId', job.target.taskId);
      form.append('file', job.file, job.file.name);
      uploadForm<ProjectFile>(`/projects/${encodeURIComponent(this.projectId)}/files`, form, {
        signal: job.controller.signal,
        onProgress: (sent, total) =>
          this.patch(job.key, { sent: fileBytesSent(sent, total, job.file.size), total: job.file.size }),
      })
        .then(
          () => {
            this.patch(job.key, { status: 'done', sent: job.file.size, total: job.file.size });
            this.dispatch(filesApi.util.invalidateTags([...FILE_CHANGES]));
          },
          async (error: unknown) => {
            if (error instanceof DOMException && error.name === 'AbortError') {
              this.patch(job.key, { status: 'canceled' });
            } else if (
              error instanceof UploadError &&
              error.code === 'duplicate_filename' &&
              job.onConflict === 'fail'
            ) {
              // taken since the look-up: the same choice as before sending
              this.patch(job.key, { status: 'checking' });
              const retry: Job = { ...job, onConflict: 'version', controller: new AbortController() };
              this.checking.set(job.key, retry);
              const answer = await this.ask(fileDisplayName(job.file.name), job.target.folderName);
              this.checking.delete(job.key);
              if (retry.controller.signal.aborted) return;
              if (this.answered(job, answer)) this.enqueue(retry);
            } else {
              this.patch(job.key, {
                status: 'error',
                message: error instanceof Error ? error.message : 'The upload failed. Try again.',
              });
            }
          },
        )
        .finally(() => {
          this.running.delete(job.key);
          this.pump();
        });
    }
  }

  private enqueue(job: Job) {
    this.patch(job.key, { status: 'queued', message: undefined });
    this.queue.push(job);
    this.pump();
  }

  /** Whether a file of this name is already in the folder (false when the look-up fails: the api will say). */
  private async nameTaken(name: string, folderId: string) {
    // the look-up's search is limited in length: the name the api will store, not the raw one
    const search = fileDisplayName(name);
    try {
      const lookup = (this.dispatch as unknown as (action: unknown) => { unwrap(): Promise<FileList> })(
        filesApi.endpoints.filesList.initiate(
          { projectId: this.projectId, folderId, search, pageSize: 200 },
          { subscribe: false, forceRefetch: true },
        ),
      );
      const page = await lookup.unwrap();
      return page.results.some((f) => sameFileName(f.name, search));
    } catch {
      return false;
    }
  }

  add = async (files: File[], target: UploadTarget) => {
    const jobs = files.map((file): Job => ({
      key: `upload-${(nextKey += 1)}`,
      file,
      target,
      onConflict: 'fail',
      controller: new AbortController(),
    }));
    this.setItems([
      ...this.items,
      ...jobs.map((j): UploadItem => {
        const problem = uploadProblem(j.file);
        return {
          key: j.key,
          name: fileDisplayName(j.file.name),
          folderName: target.folderName,
          status: problem ? 'error' : 'checking',
          sent: 0,
          total: j.file.size,
          message: problem ?? undefined,
        };
      }),
    ]);
    const sendable = jobs.filter((j) => !uploadProblem(j.file));
    for (const j of sendable) this.checking.set(j.key, j);
    const taken = await Promise.all(sendable.map((j) => this.nameTaken(j.file.name, target.folderId)));
    // free names go at once; each taken one waits for the user's choice, one question at a time
    sendable.forEach((j, i) => {
      if (!taken[i] && !j.controller.signal.aborted) {
        this.checking.delete(j.key);
        this.enqueue(j);
      }
    });
    for (const [i, j] of sendable.entries()) {
      if (!taken[i] || j.controller.signal.aborted) continue;
      const answer = await this.ask(fileDisplayName(j.file.name), target.folderName);
      this.checking.delete(j.key);
      if (j.controller.signal.aborted) continue;
      if (this.answered(j, answer)) this.enqueue({ ...j, onConflict: 'version' });
    }
    for (const j of jobs) this.checking.delete(j.key);
  };

  cancel = (key: string) => {
    const waiting = this.queue.findIndex((j) => j.key === key);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      this.patch(key, { status: 'canceled' });
      return;
    }
    const waitingForCheck = this.checking.get(key);
    if (waitingForCheck) {
      waitingForCheck.controller.abort();
      this.checking.delete(key);
      this.patch(key, { status: 'canceled' });
      return;
    }
    this.running.get(key)?.controller.abort();
  };

  clearFinished = () => {
    this.setItems(this.items.filter((i) => isActiveUpload(i.status)));
  };
}

/** The queues of each store (one per app, one per test), by place. */
const queues = new WeakMap<object, Map<string, UploadQueue>>();
function queueOf(dispatch: Dispatch, projectId: string, place: string): UploadQueue {
  let byPlace = queues.get(dispatch);
  if (!byPlace) {
    byPlace = new Map();
    queues.set(dispatch, byPlace);
  }
  let queue = byPlace.get(place);
  if (!queue) {
    queue = new UploadQueue(projectId, dispatch);
    byPlace.set(place, queue);
  }
  return queue;
}

/**
 * The uploads of a place: a project's files, or one task's files (`taskId`). Each file is checked in the
 * browser first (empty, too large), its name looked up in the folder so the user chooses before sending
 * whether it becomes a new version (`askVersion`), then sent with progress, at most
 * MAX_PARALLEL_UPLOADS at once, each cancelable. A name taken between the look-up and the upload (409
 * duplicate_filename) asks the same question. After each upload the lists that show files refresh.
 *
 * The queue outlives the screen: switching tabs or pages does not stop the uploads, and their rows are
 * there again on return. A question still open when the screen goes is answered "not uploaded"
 * (LEFT_BEFORE_CHOOSING). While a file is checking, queued or uploading, leaving the page asks first.
 */
export function useUploads(
  projectId: string,
  askVersion: (name: string, folderName: string) => Promise<boolean>,
  taskId?: string,
) {
  const dispatch = useDispatch();
  const queue = useMemo(
    () => queueOf(dispatch, projectId, taskId ? `${projectId}/tasks/${taskId}` : projectId),
    [dispatch, projectId, taskId],
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const ask = useRef(askVersion);
  useEffect(() => {
    ask.current = askVersion;
  }, [askVersion]);

  useEffect(() => {
    // questions open while this screen is shown; leaving it settles them (its dialog goes with it)
    const open = new Set<(answer: boolean | null) => void>();
    const asker: Asker = (name, folderName) =>
      new Promise((resolve) => {
        open.add(resolve);
        ask.current(name, folderName).then(
          (answer) => {
            open.delete(resolve);
            resolve(answer);
          },
          () => {
            open.delete(resolve);
            resolve(false);
          },
        );
      });
    const remove = queue.addAsker(asker);
    return () => {
      remove();
      for (const settle of open) settle(null);
      open.clear();
    };
  }, [queue]);

  const add = useCallback((files: File[], target: UploadTarget) => queue.add(files, target), [queue]);
  return { items, add, cancel: queue.cancel, clearFinished: queue.clearFinished };
}
