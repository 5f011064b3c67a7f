import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SYSTEM_SETTING_FILE_MAX_BYTES, sniffImageType, type SystemSettingFile } from '@portal/shared/core/settings';
import { findPortalMessage } from '../../db/portal-messages';
import {
  deleteSystemSettingFile,
  findSystemSettingFile,
  insertSystemSettingFiles,
  listSystemSettingFiles,
  toSystemSettingFileDto,
  type NewSystemSettingFile,
} from '../../db/system-setting-files';
import { audit } from '../../lib/audit';
import { HttpError, validationError } from '../../lib/http-error';
import { readForm, type UploadedFile } from '../../lib/multipart';
import { systemFileStore } from '../../lib/system-files';
import { requireAuth } from '../../plugins/auth';

export const SYSTEM_SETTING_MAX_FILES = 10;
const FILES_FIELD = { maxBytes: SYSTEM_SETTING_FILE_MAX_BYTES, sizeRule: 'must be at most 10 MB each', maxCount: SYSTEM_SETTING_MAX_FILES };
const NAME_MAX = 200;

const idText = (field: string) => z.string().min(1, `${field} is required`).max(100, `${field} is too long`);
const settingParamsSchema = z.object({ id: idText('id') });
const fileParamsSchema = z.object({ id: idText('id'), fileId: idText('fileId') });

const settingNotFound = () => new HttpError(404, 'not_found', 'System setting not found.');
const fileNotFound = () => new HttpError(404, 'not_found', 'File not found.');

/**
 * The name as shown and offered on download, never a path: the last segment only, without control
 * or bidirectional-override characters, at most 200 characters.
 */
export function displayFileName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const name = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  return Array.from(name).slice(0, NAME_MAX).join('');
}

/** PDF, PNG and JPEG are named as such, by their bytes; anything else is opaque bytes. */
export function fileContentType(buffer: Buffer): string {
  if (buffer.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  const image = sniffImageType(buffer.subarray(0, 16));
  return image === 'image/png' || image === 'image/jpeg' ? image : 'application/octet-stream';
}

/** `attachment` with an ASCII fallback and the exact name in RFC 5987 form. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function params<T extends z.ZodType>(schema: T, request: FastifyRequest): z.infer<T> {
  const parsed = schema.safeParse(request.params);
  if (!parsed.success) throw validationError(parsed.error, 'path parameter');
  return parsed.data;
}

function checkFiles(files: UploadedFile[]): void {
  if (files.length === 0) {
    throw new HttpError(400, 'validation_failed', 'Invalid field: files', [{ field: 'files', message: 'files must hold at least one file' }]);
  }
  const empty = files.find((f) => f.buffer.length === 0);
  if (empty) {
    throw new HttpError(400, 'validation_failed', 'Invalid field: files', [
      { field: 'files', message: `files: ${displayFileName(empty.filename)} is empty` },
    ]);
  }
}

/** Files attached to a system setting (SPEC.md sections 3 and 7), for staff admins. */
export default async function systemSettingsFilesRoutes(app: FastifyInstance) {
  const { db } = app;
  const store = systemFileStore(app.config.dataDir);

  const filesOf = async (messageId: string): Promise<{ files: SystemSettingFile[] }> => ({
    files: (await listSystemSettingFiles(db, messageId)).map(toSystemSettingFileDto),
  });

  app.get('/api/v1/system-settings/:id/files', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const { id } = params(settingParamsSchema, request);
    if (!(await findPortalMessage(db, id))) throw settingNotFound();
    return reply.header('cache-control', 'no-store').send(await filesOf(id));
  });

  app.patch('/api/v1/system-settings/:id/files', { config: { policy: 'staffAdmin' } }, async (request) => {
    const { user } = await requireAuth(request);
    const { id } = params(settingParamsSchema, request);
    if (!(await findPortalMessage(db, id))) throw settingNotFound();
    const form = await readForm(request, { files: { files: FILES_FIELD } });
    const uploads = form.files.filter((f) => f.field === 'files');
    checkFiles(uploads);

    // The bytes are in place before any row names them; if anything fails, what was written goes.
    const written: string[] = [];
    try {
      const rows: NewSystemSettingFile[] = [];
      // One request's files keep the order they were sent in: each is a millisecond after the one before.
      const uploadedAt = Date.now();
      for (const upload of uploads) {
        const storageKey = await store.put(upload.buffer);
        written.push(storageKey);
        rows.push({
          id: randomUUID(),
          messageId: id,
          name: displayFileName(upload.filename),
          contentType: fileContentType(upload.buffer),
          size: upload.buffer.length,
          sha256: createHash('sha256').update(upload.buffer).digest('hex'),
          storageKey,
          uploadedBy: user.id,
          createdAt: new Date(uploadedAt + rows.length).toISOString(),
        });
      }
      await db.transaction().execute(async (trx) => {
        const message = await findPortalMessage(trx, id);
        if (!message) throw settingNotFound();
        await insertSystemSettingFiles(trx, rows);
        await audit(
          request,
          {
            action: 'systemSetting.files.add',
            targetType: 'systemSetting',
            targetId: id,
            targetLabel: message.key,
            after: { files: rows.map((r) => ({ id: r.id, name: r.name, size: r.size, sha256: r.sha256 })) },
          },
          trx,
        );
      });
    } catch (error) {
      await Promise.all(written.map((key) => store.remove(key)));
      throw error;
    }
    return filesOf(id);
  });

  app.get('/api/v1/system-settings/:id/files/:fileId', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const { id, fileId } = params(fileParamsSchema, request);
    const file = await findSystemSettingFile(db, id, fileId);
    if (!file) throw fileNotFound();
    const stream = await store.open(file.storageKey);
    if (!stream) throw fileNotFound();
    return reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentDisposition(file.name))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-store')
      .send(stream);
  });

  app.delete('/api/v1/system-settings/:id/files/:fileId', { config: { policy: 'staffAdmin' } }, async (request, reply) => {
    const { id, fileId } = params(fileParamsSchema, request);
    const removed = await db.transaction().execute(async (trx) => {
      const file = await findSystemSettingFile(trx, id, fileId);
      if (!file) throw fileNotFound();
      await deleteSystemSettingFile(trx, id, fileId);
      const message = await findPortalMessage(trx, id);
      await audit(
        request,
        {
          action: 'systemSetting.files.delete',
          targetType: 'systemSetting',
          targetId: id,
          targetLabel: message?.key ?? '',
          before: { id: file.id, name: file.name, size: file.size, sha256: file.sha256 },
        },
        trx,
      );
      return file;
    });
    // Only once the row is gone: a failed delete never leaves a row naming missing bytes.
    await store.remove(removed.storageKey);
    return reply.code(204).send();
  });
}
