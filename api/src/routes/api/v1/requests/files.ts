/**
 * Evidence requests (issue 8): evidence files and their file kind. Clients who see a request and staff
 * managers upload while it is open or returned; a client removes their own files then, a manager any
 * file then (never once submitted, accepted or canceled). Downloads go through GET /files/:id/signed-url (the `request`
 * kind below). Contract: shared/src/core/requests.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  REQUEST_MAX_FILES,
  evidenceEditable,
  type RequestFile,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type { RequestAccess } from '../../../../db/request-access';
import { requestAccessFor } from '../../../../db/request-access';
import { lockRequest, recordRequestEvents, requestUserRefs, touchRequest } from '../../../../db/requests';
import type { Database } from '../../../../db/schema';
import { nowIso, toIso } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { canDeleteRequestFile } from '../../../../modules/requests/permissions';
import { addFileKind, type FileKind } from '../../../../lib/file-kinds';
import { HttpError } from '../../../../lib/http-error';
import { formCommits, readStreamedForm } from '../../../../lib/uploads';
import { requireAuth } from '../../../../plugins/app/auth';
import * as api from '@portal/shared/core/requests/api';
import { invalidField, route } from '../../../../lib/contract';
import { policyRequest } from '../../../../plugins/app/policies';
import { settleMissing } from '../../../../modules/projects/writes';

/** Files one upload carries. */
export const REQUEST_UPLOAD_MAX_FILES = 20;

const requestNotFound = () => new HttpError(404, 'request_not_found');
const fileNotFound = () => new HttpError(404, 'file_not_found');

/** 409 for evidence that may not change in this status (null: it may). */
function evidenceLocked(status: RequestStatus): HttpError | null {
  if (evidenceEditable(status)) return null;
  return status === 'submitted' ? new HttpError(409, 'request_under_review') : new HttpError(409, 'request_is_closed');
}

interface FileRow {
  id: string;
  request_id: string;
  name: string;
  content_type: string;
  size: number | string;
  uploaded_by: string | null;
  created_at: string | Date;
}

async function toRequestFiles(
  db: Kysely<Database>,
  rows: FileRow[],
  access: RequestAccess,
  status: RequestStatus,
  callerId: string,
): Promise<RequestFile[]> {
  const uploaders = await requestUserRefs(db, [
    ...new Set(rows.flatMap((r) => (r.uploaded_by ? [r.uploaded_by] : []))),
  ]);
  return rows.map((row) => ({
    id: row.id,
    requestId: row.request_id,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    uploadedBy: row.uploaded_by ? (uploaders.get(row.uploaded_by) ?? null) : null,
    createdAt: toIso(row.created_at),
    canDelete: canDeleteRequestFile(access, callerId, status, row.uploaded_by),
  }));
}

export default async function requestFilesRoutes(app: FastifyInstance) {
  const { db } = app;

  addFileKind(app.fileKinds, requestFileKind(db));

  route(app, api.addRequestFiles, async (request, reply) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    if (!access.respond && !access.manage)
      throw new HttpError(403, 'forbidden', 'Only the client and the consultancy can add evidence.');
    // Refused before the bytes are read; checked again under the lock below.
    const early = evidenceLocked(access.request.status);
    if (early) throw early;
    const form = await readStreamedForm(request, {
      storage: app.storage,
      fileField: 'files',
      maxFiles: REQUEST_UPLOAD_MAX_FILES,
      maxBytes: app.config.uploadMaxBytes,
      required: true,
    });
    const commits = formCommits(form, app.storage);
    const target = access.request;
    let result: { ids: string[]; status: RequestStatus };
    try {
      const stored: { id: string; storageKey: string }[] = [];
      for (const file of form.files) stored.push({ id: randomUUID(), storageKey: await commits.commit(file) });
      const createdAt = nowIso();
      result = await settleMissing(requestNotFound, () =>
        db.transaction().execute(async (trx) => {
          const status = await lockRequest(trx, target.id);
          if (status === null) throw requestNotFound();
          const locked = evidenceLocked(status);
          if (locked) throw locked;
          const count = await trx
            .selectFrom('request_files')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .where('request_id', '=', target.id)
            .executeTakeFirstOrThrow();
          const held = Number(count.n);
          if (held + form.files.length > REQUEST_MAX_FILES) {
            throw invalidField(
              'files',
              `a request holds at most ${REQUEST_MAX_FILES} evidence files (this one has ${held})`,
            );
          }
          await trx
            .insertInto('request_files')
            .values(
              form.files.map((file, i) => ({
                id: stored[i].id,
                request_id: target.id,
                company_id: target.companyId,
                name: file.name,
                content_type: file.contentType,
                size: file.blob.size,
                sha256: file.blob.sha256,
                storage_key: stored[i].storageKey,
                uploaded_by: user.id,
                created_at: createdAt,
              })),
            )
            .execute();
          await recordRequestEvents(
            trx,
            form.files.map((file) => ({
              requestId: target.id,
              actorId: user.id,
              type: 'file_added' as const,
              detail: { name: file.name },
              createdAt,
            })),
          );
          await touchRequest(trx, target.id, createdAt);
          await audit(
            request,
            {
              action: 'request.file.upload',
              targetType: 'request',
              targetId: target.id,
              targetLabel: target.reference,
              companyId: target.companyId,
              after: {
                files: form.files.map((f, i) => ({
                  id: stored[i].id,
                  name: f.name,
                  size: f.blob.size,
                  sha256: f.blob.sha256,
                  contentType: f.contentType,
                })),
              },
            },
            trx,
          );
          return { ids: stored.map((s) => s.id), status };
        }),
      );
    } catch (error) {
      // Never bytes without a row: staged ones discarded, committed ones removed.
      await commits.undo();
      throw error;
    }
    const rows = await db.selectFrom('request_files').selectAll().where('id', 'in', result.ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    // In the order the form sent them.
    const ordered = result.ids.flatMap((id) => byId.get(id) ?? []);
    return reply.code(201).send({ results: await toRequestFiles(db, ordered, access, result.status, user.id) });
  });

  route(app, api.deleteRequestFile, async (request, reply) => {
    const access = policyRequest(request);
    const { user } = await requireAuth(request);
    const { fileId } = request.params;
    const target = access.request;
    const storageKey = await db.transaction().execute(async (trx) => {
      const status = await lockRequest(trx, target.id);
      if (status === null) throw requestNotFound();
      const file = await trx
        .selectFrom('request_files')
        .selectAll()
        .where('id', '=', fileId)
        .where('request_id', '=', target.id)
        .executeTakeFirst();
      if (!file) throw fileNotFound();
      // Evidence changes only while open or returned, for everyone (canDeleteRequestFile, the rule the
      // list's canDelete shows): whoever could remove the file were it editable hears why not (409);
      // anyone else is refused (403).
      const locked = evidenceLocked(status);
      if (!canDeleteRequestFile(access, user.id, locked ? 'open' : status, file.uploaded_by)) {
        throw new HttpError(403, 'forbidden', 'Only the one who added it or the consultancy can remove this file.');
      }
      if (locked) throw locked;
      await trx.deleteFrom('request_files').where('id', '=', file.id).execute();
      const at = nowIso();
      await recordRequestEvents(trx, [
        { requestId: target.id, actorId: user.id, type: 'file_removed', detail: { name: file.name }, createdAt: at },
      ]);
      await touchRequest(trx, target.id, at);
      await audit(
        request,
        {
          action: 'request.file.delete',
          targetType: 'request',
          targetId: target.id,
          targetLabel: target.reference,
          companyId: target.companyId,
          before: {
            fileId: file.id,
            name: file.name,
            size: Number(file.size),
            sha256: file.sha256,
            uploadedBy: file.uploaded_by,
          },
        },
        trx,
      );
      return file.storage_key;
    });
    // Only once the row is gone: a failed delete never leaves a row naming missing bytes.
    try {
      await app.storage.remove(storageKey);
    } catch (error) {
      request.log.warn({ err: error }, 'a removed evidence file kept its bytes: the sweep removes them');
    }
    return reply.code(204).send();
  });
}

/**
 * Evidence files for GET /files/:id/signed-url and the download: whoever sees the request (the requests
 * module on for them) gets its files; anyone else, and a module turned off, gets 404 like a missing file.
 */
export function requestFileKind(db: Kysely<Database>): FileKind {
  return {
    name: 'request',
    async find({ auth, fileId, versionId }) {
      // Evidence has no versions: its one "version" is the file itself.
      if (versionId !== undefined && versionId !== fileId) return null;
      const file = await db.selectFrom('request_files').selectAll().where('id', '=', fileId).executeTakeFirst();
      if (!file) return null;
      try {
        if (!(await requestAccessFor(db, auth.user, file.request_id))) return null;
      } catch (error) {
        if (error instanceof HttpError) return null;
        throw error;
      }
      return {
        versionId: file.id,
        name: file.name,
        contentType: file.content_type,
        size: Number(file.size),
        storageKey: file.storage_key,
      };
    },
  };
}
