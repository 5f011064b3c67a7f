/**
 * Streamed multipart uploads (issue 6): text fields, then file parts, each streamed into the blob
 * storage under a temporary name (never whole in memory), with the size limit, the empty check and the
 * content check applied before the caller sees it. On any failure every staged blob is discarded and
 * the error (an HttpError naming the field) is thrown; on success the caller commits or discards each.
 */
import type { Socket } from 'node:net';
import type { MultipartFile, MultipartValue, Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileDisplayName, formatBytes } from '@portal/shared/core/files';
import { checkFileContent } from './file-types';
import { HttpError } from './http-error';
import { BlobTooLargeError, type BlobStorage, type StagedBlob } from './storage';

export interface StreamedFile {
  field: string;
  /** fileDisplayName of the client's name: for display only, never a path. */
  name: string;
  /** Checked by content (lib/file-types.ts). */
  contentType: string;
  blob: StagedBlob;
}

export interface StreamedForm {
  /** Repeated fields become arrays. */
  fields: Record<string, string | string[]>;
  files: StreamedFile[];
}

export interface StreamedFormOptions {
  storage: BlobStorage;
  /** The one file field accepted (others: 400 naming it). */
  fileField: string;
  /** At most this many file parts (more: 400 naming the field). */
  maxFiles: number;
  /** Per file (larger: 400 validation_failed naming the field, "must be at most N MB"). */
  maxBytes: number;
  /** At least one file (none: 400 naming the field). Default true. */
  required?: boolean;
  /** A client that sends nothing for this long is cut off (its staged files discarded). Default UPLOAD_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
}

/** How long an upload may stall before its connection is closed (the server has no request timeout: uploads may be large). */
export const UPLOAD_IDLE_TIMEOUT_MS = 60_000;

const MAX_FIELDS = 60;
const MAX_FIELD_BYTES = 100_000;

const invalidField = (field: string, message: string) =>
  new HttpError(400, 'validation_failed', `Invalid field: ${field}`, [{ field, message }]);

/** An error the stream of the request raised (cut connection, malformed body), not one of ours or the disk's. */
class FormStreamError extends Error {
  constructor(readonly streamError: unknown) {
    super('form stream error');
  }
}

function formError(error: unknown): HttpError {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new HttpError(400, 'bad_request', 'The form has too many parts.');
  }
  if (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    (error instanceof Error && /aborted|terminated early/i.test(error.message))
  ) {
    return new HttpError(400, 'bad_request', 'The upload was interrupted before it ended.');
  }
  return new HttpError(400, 'bad_request', 'The multipart body is malformed.');
}

/** Disk errors carry the system call that failed; anything else from a file part came from the request. */
const isSystemError = (error: unknown) => typeof (error as { syscall?: unknown } | null)?.syscall === 'string';

export async function readStreamedForm(request: FastifyRequest, options: StreamedFormOptions): Promise<StreamedForm> {
  const { storage, fileField, maxFiles, maxBytes, required = true, idleTimeoutMs = UPLOAD_IDLE_TIMEOUT_MS } = options;
  if (!request.isMultipart()) throw new HttpError(400, 'bad_request', 'The body must be multipart form data.');

  // A stalled client would hold the connection and its staged file for ever: cut it off after a silence,
  // which breaks the form's stream and so discards what it staged.
  const socket = request.raw.socket as Socket | undefined;
  const watchesIdle = typeof socket?.setTimeout === 'function';
  const previousTimeout = watchesIdle ? (socket!.timeout ?? 0) : 0;
  const onIdle = () => socket?.destroy(new Error('the upload stalled: connection closed'));
  if (watchesIdle) socket!.setTimeout(idleTimeoutMs, onIdle);

  // No prototype: a field named __proto__ or constructor is just a field.
  const form: StreamedForm = { fields: Object.create(null) as Record<string, string | string[]>, files: [] };
  let iterator: AsyncIterator<Multipart> | null = null;
  let pending: MultipartFile | null = null;
  const next = async (): Promise<Multipart | null> => {
    try {
      if (!iterator) {
        const parts = request.parts({
          // One byte over the limit reaches storage.stage, which refuses it; the plugin never cuts a file short silently.
          limits: {
            fileSize: maxBytes + 1,
            files: maxFiles + 1,
            fields: MAX_FIELDS,
            fieldSize: MAX_FIELD_BYTES,
            parts: maxFiles + MAX_FIELDS + 1,
          },
          // Read by the plugin at run time, missing from its types.
          ...({ throwFileSizeLimit: false } as object),
        });
        iterator = parts[Symbol.asyncIterator]();
      }
      const result = await iterator.next();
      return result.done ? null : result.value;
    } catch (error) {
      throw new FormStreamError(error);
    }
  };

  // What comes after the file being staged, asked for while it streams in: if the form breaks before
  // the file ends (a malformed body), the plugin may leave the file neither ended nor destroyed.
  let lookahead: Promise<Multipart | null> | null = null;
  const take = () => {
    const result = lookahead ?? next();
    lookahead = null;
    return result;
  };

  try {
    for (let part = await take(); part; part = await take()) {
      if (part.type === 'field') {
        const { fieldname } = part as MultipartValue;
        const value = String((part as MultipartValue).value ?? '');
        const previous = Object.hasOwn(form.fields, fieldname) ? form.fields[fieldname] : undefined;
        form.fields[fieldname] =
          previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
        continue;
      }
      pending = part;
      if (part.fieldname !== fileField)
        throw invalidField(part.fieldname, `${part.fieldname} is not a file field of this form`);
      if (form.files.length >= maxFiles)
        throw invalidField(fileField, `${fileField} takes at most ${maxFiles} file${maxFiles === 1 ? '' : 's'}`);
      const name = fileDisplayName(part.filename ?? '');
      const file = part.file;
      lookahead = next();
      lookahead.catch(() => file.destroy());
      let blob: StagedBlob;
      try {
        blob = await storage.stage(part.file, { maxBytes });
      } catch (error) {
        if (error instanceof BlobTooLargeError)
          throw invalidField(fileField, `${fileField} must be at most ${formatBytes(maxBytes)}`);
        throw isSystemError(error) ? error : new FormStreamError(error);
      }
      pending = null;
      const streamed: StreamedFile = { field: fileField, name, contentType: 'application/octet-stream', blob };
      form.files.push(streamed);
      if (blob.size === 0) throw invalidField(fileField, `${fileField}: ${name} is empty`);
      const check = checkFileContent(name, blob.head);
      if (!check.ok)
        throw new HttpError(415, 'unsupported_file_type', check.reason, [{ field: fileField, message: check.reason }]);
      streamed.contentType = check.contentType;
    }
    if (required && form.files.length === 0) throw invalidField(fileField, `${fileField} is required`);
    return form;
  } catch (error) {
    await discardForm(form);
    if (error instanceof FormStreamError) throw formError(error.streamError);
    // Read what is left of the body and drop it, so the client gets the answer rather than a cut connection.
    if (pending) pending.file.resume();
    try {
      for (let part = await take(); part; part = await take()) {
        if (part.type === 'file') part.file.resume();
      }
    } catch {
      // The body was broken too: the answer is the first error.
    }
    throw error;
  } finally {
    if (watchesIdle) {
      socket!.off('timeout', onIdle);
      socket!.setTimeout(previousTimeout);
    }
  }
}

/**
 * Commits a staged file. Its staged bytes gone meanwhile (the orphan sweep of another instance took a
 * stalled upload's): 400, the client sends it again.
 */
export async function commitUpload(file: StreamedFile): Promise<string> {
  try {
    return await file.blob.commit();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ENOENT')
      throw new HttpError(400, 'bad_request', 'The upload was interrupted: send it again.');
    throw error;
  }
}

/** Discards every staged blob of a form (after a failed check or transaction). Never throws. */
export async function discardForm(form: StreamedForm): Promise<void> {
  await Promise.all(form.files.map((f) => f.blob.discard().catch(() => undefined)));
}

/**
 * The bytes one request commits before the rows that name them, so a refused or failed request takes
 * them back: `commit` commits a staged file and notes its key; `undo` discards the form's staged blobs
 * and removes the committed ones (never throws).
 */
export function formCommits(form: StreamedForm, storage: BlobStorage) {
  const committed: string[] = [];
  return {
    async commit(file: StreamedFile): Promise<string> {
      const storageKey = await commitUpload(file);
      committed.push(storageKey);
      return storageKey;
    },
    async undo(): Promise<void> {
      await discardForm(form);
      await Promise.allSettled(committed.map((key) => storage.remove(key)));
    },
  };
}
