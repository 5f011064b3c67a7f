import { useCallback, useEffect, useRef, useState } from 'react';
import { useDispatch } from '@portal/shared/web/store';
import { fileDisplayName, type ProjectFile } from '@portal/shared/core/files';
import { FILE_CHANGES, filesApi } from '../../../app/files-api';
import { uploadForm, UploadError } from '../../../app/upload';
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

let nextKey = 0;
const KEPT = 'Not uploaded: the existing file was kept.';

/**
 * The uploads of one screen: each file checked in the browser first (empty, too large), its name looked
 * up in the folder so the user chooses before sending whether it becomes a new version (`askVersion`),
 * then sent with progress, at most MAX_PARALLEL_UPLOADS at once, each cancelable. A name taken between
 * the look-up and the upload (409 duplicate_filename) asks the same question. After each upload the
 * lists that show files refresh.
 */
export function useUploads(projectId: string, askVersion: (name: string, folderName: string) => Promise<boolean>) {
  const dispatch = useDispatch();
  const [lookup] = filesApi.useLazyFilesListQuery();
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<Job[]>([]);
  /** Files waiting for their look-up or the user's answer. */
  const checking = useRef(new Map<string, Job>());
  const running = useRef(new Map<string, Job>());
  const ask = useRef(askVersion);
  useEffect(() => {
    ask.current = askVersion;
  }, [askVersion]);

  const patch = useCallback((key: string, changes: Partial<UploadItem>) => {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...changes } : i)));
  }, []);

  const pump = useCallback(() => {
    while (running.current.size < MAX_PARALLEL_UPLOADS && queue.current.length) {
      const job = queue.current.shift() as Job;
      running.current.set(job.key, job);
      patch(job.key, { status: 'uploading', sent: 0, total: job.file.size });
      // text fields before the file: the api reads them first
      const form = new FormData();
      form.append('folderId', job.target.folderId);
      form.append('onConflict', job.onConflict);
      if (job.target.taskId) form.append('taskId', job.target.taskId);
      form.append('file', job.file, job.file.name);
      uploadForm<ProjectFile>(`/projects/${encodeURIComponent(projectId)}/files`, form, {
        signal: job.controller.signal,
        onProgress: (sent, total) => patch(job.key, { sent, total }),
      })
        .then(
          () => {
            patch(job.key, { status: 'done', sent: job.file.size, total: job.file.size });
            dispatch(filesApi.util.invalidateTags([...FILE_CHANGES]));
          },
          async (error: unknown) => {
            if (error instanceof DOMException && error.name === 'AbortError') {
              patch(job.key, { status: 'canceled' });
            } else if (error instanceof UploadError && error.code === 'duplicate_filename' && job.onConflict === 'fail') {
              // taken since the look-up: the same choice as before sending
              if (await ask.current(fileDisplayName(job.file.name), job.target.folderName)) {
                patch(job.key, { status: 'queued' });
                queue.current.push({ ...job, onConflict: 'version', controller: new AbortController() });
              } else {
                patch(job.key, { status: 'canceled', message: KEPT });
              }
            } else {
              patch(job.key, { status: 'error', message: error instanceof Error ? error.message : 'The upload failed. Try again.' });
            }
          },
        )
        .finally(() => {
          running.current.delete(job.key);
          pump();
        });
    }
  }, [dispatch, patch, projectId]);

  const enqueue = useCallback(
    (job: Job) => {
      patch(job.key, { status: 'queued', message: undefined });
      queue.current.push(job);
      pump();
    },
    [patch, pump],
  );

  /** Whether a file of this name is already in the folder (false when the look-up fails: the api will say). */
  const nameTaken = useCallback(
    async (name: string, folderId: string) => {
      try {
        const page = await lookup({ projectId, folderId, search: name, pageSize: 200 }).unwrap();
        return page.results.some((f) => sameFileName(f.name, name));
      } catch {
        return false;
      }
    },
    [lookup, projectId],
  );

  const add = useCallback(
    async (files: File[], target: UploadTarget) => {
      const jobs = files.map((file) => ({ key: `upload-${(nextKey += 1)}`, file, target, onConflict: 'fail' as const, controller: new AbortController() }));
      setItems((list) => [
        ...list,
        ...jobs.map((j): UploadItem => {
          const problem = uploadProblem(j.file);
          return { key: j.key, name: fileDisplayName(j.file.name), folderName: target.folderName, status: problem ? 'error' : 'checking', sent: 0, total: j.file.size, message: problem ?? undefined };
        }),
      ]);
      const sendable = jobs.filter((j) => !uploadProblem(j.file));
      for (const j of sendable) checking.current.set(j.key, j);
      const taken = await Promise.all(sendable.map((j) => nameTaken(j.file.name, target.folderId)));
      // free names go at once; each taken one waits for the user's choice, one question at a time
      sendable.forEach((j, i) => {
        if (!taken[i] && !j.controller.signal.aborted) enqueue(j);
      });
      for (const [i, j] of sendable.entries()) {
        if (!taken[i] || j.controller.signal.aborted) continue;
        const asVersion = await ask.current(fileDisplayName(j.file.name), target.folderName);
        if (j.controller.signal.aborted) continue;
        if (asVersion) enqueue({ ...j, onConflict: 'version' });
        else patch(j.key, { status: 'canceled', message: KEPT });
      }
      for (const j of jobs) checking.current.delete(j.key);
    },
    [enqueue, nameTaken, patch],
  );

  const cancel = useCallback(
    (key: string) => {
      const waiting = queue.current.findIndex((j) => j.key === key);
      if (waiting >= 0) {
        queue.current.splice(waiting, 1);
        patch(key, { status: 'canceled' });
        return;
      }
      const waitingForCheck = checking.current.get(key);
      if (waitingForCheck) {
        waitingForCheck.controller.abort();
        checking.current.delete(key);
        patch(key, { status: 'canceled' });
        return;
      }
      running.current.get(key)?.controller.abort();
    },
    [patch],
  );

  const clearFinished = useCallback(() => {
    setItems((list) => list.filter((i) => i.status === 'checking' || i.status === 'queued' || i.status === 'uploading'));
  }, []);

  return { items, add, cancel, clearFinished };
}
