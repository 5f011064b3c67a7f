import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as api from '@portal/shared/core/files/api';
import { SYSTEM_SETTING_FILE_MAX_BYTES } from '@portal/shared/core/settings';
import { findPortalMessage } from '../../../../db/portal-messages';
import {
  deleteSystemSettingFile,
  findSystemSettingFile,
  findSystemSettingFileById,
  insertSystemSettingFiles,
  listSystemSettingFiles,
  toSystemSettingFileDto,
  type NewSystemSettingFile,
} from '../../../../db/system-setting-files';
import { audit } from '../../../../lib/audit';
import { addFileKind, type FileKind } from '../../../../lib/file-kinds';
import { HttpError } from '../../../../lib/http-error';
import { formCommits, readStreamedForm } from '../../../../lib/uploads';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';

export const SYSTEM_SETTING_MAX_FILES = 10;

const settingNotFound = () => new HttpError(404, 'not_found', 'System setting not found.');
const fileNotFound = () => new HttpError(404, 'not_found', 'File not found.');

/**
 * The system-setting kind of stored file: staff admins download them through GET /files/:id/signed-url;
 * for anyone else they do not exist.
 */
export const systemSettingFileKind: FileKind = {
  name: 'systemSetting',
  async find({ request, auth, fileId, versionId }) {
    if (!auth.user.isTevora || !auth.user.isAdmin) return null;
    // Without versions: the file's id is its only version.
    if (versionId !== undefined && versionId !== fileId) return null;
    const file = await findSystemSettingFileById(request.server.db, fileId);
    if (!file) return null;
    return {
      versionId: file.id,
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      storageKey: file.storageKey,
    };
  },
};

/** Files attached to a system setting, for staff admins. */
export default async function systemSettingsFilesRoutes(app: FastifyInstance) {
  const { db, storage } = app;
  addFileKind(app.fileKinds, systemSettingFileKind);

  const filesOf = async (messageId: string) => ({
    files: (await listSystemSettingFiles(db, messageId)).map(toSystemSettingFileDto),
  });

  route(app, api.listSystemSettingFiles, async (request, reply) => {
    const { id } = request.params;
    if (!(await findPortalMessage(db, id))) throw settingNotFound();
    reply.header('cache-control', 'no-store');
    return filesOf(id);
  });

  route(app, api.addSystemSettingFiles, async (request) => {
    const { user } = await requireAuth(request);
    const { id } = request.params;
    if (!(await findPortalMessage(db, id))) throw settingNotFound();
    const form = await readStreamedForm(request, {
      storage,
      fileField: 'files',
      maxFiles: SYSTEM_SETTING_MAX_FILES,
      maxBytes: Math.min(SYSTEM_SETTING_FILE_MAX_BYTES, app.config.uploadMaxBytes),
    });

    // The bytes are in place before any row names them; if anything fails, what was committed goes.
    const commits = formCommits(form, storage);
    try {
      const rows: NewSystemSettingFile[] = [];
      // One request's files keep the order they were sent in: each is a millisecond after the one before.
      const uploadedAt = Date.now();
      for (const file of form.files) {
        const storageKey = await commits.commit(file);
        rows.push({
          id: randomUUID(),
          messageId: id,
          name: file.name,
          contentType: file.contentType,
          size: file.blob.size,
          sha256: file.blob.sha256,
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
      await commits.undo();
      throw error;
    }
    return filesOf(id);
  });

  route(app, api.deleteSystemSettingFile, async (request, reply) => {
    const { id, fileId } = request.params;
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
    try {
      await storage.remove(removed.storageKey);
    } catch (error) {
      request.log.warn({ err: error }, 'a deleted system-setting file kept its bytes: the sweep removes them');
    }
    return reply.code(204).send();
  });
}
