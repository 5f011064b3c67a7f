/** What the task tracker routes share (issue 7): their errors, the upload form of a file, and sending one. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TASK_TRACKER_MAX_BYTES, type TaskTrackerFormat } from '@portal/shared/core/practices';
import { invalidField } from '../../lib/contract';
import { HttpError } from '../../lib/http-error';
import { readForm, type FormData, type UploadedFile } from '../../lib/multipart';
import { sendAttachment } from '../files/attachments';
import { TRACKER_FILE_TYPES } from './task-tracker-export';

export const taskTrackerNotFound = () => new HttpError(404, 'task_tracker_not_found');
export const wrongStatus = (message?: string) => new HttpError(409, 'task_tracker_in_wrong_status', message);
/** A multipart form with one task tracker file (`file`) and text fields; read into memory within the file limit. */
export function readTrackerForm(request: FastifyRequest): Promise<FormData> {
  return readForm(request, {
    files: {
      file: {
        maxBytes: TASK_TRACKER_MAX_BYTES,
        sizeRule: `must be at most ${TASK_TRACKER_MAX_BYTES / 1024 / 1024} MB`,
      },
    },
  });
}

/** The form's task tracker file, or 400 naming `file`. */
export function trackerFileOf(form: FormData): UploadedFile {
  const file = form.files.find((f) => f.field === 'file');
  if (!file) throw invalidField('file', 'file is required: a .csv or .xlsx task tracker file');
  return file;
}

/** Sends a task tracker file as a download the browser neither sniffs nor renders. */
export function sendTrackerFile(reply: FastifyReply, bytes: Buffer, format: TaskTrackerFormat, fileName: string) {
  return sendAttachment(reply, bytes, TRACKER_FILE_TYPES[format], fileName);
}
