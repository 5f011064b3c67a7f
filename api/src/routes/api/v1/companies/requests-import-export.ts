/**
 * Evidence requests (issue 8): importing a file of requests into a company, exporting the requests the
 * caller sees as a file, and the import template. Contract: shared/src/core/requests ("Import and
 * export files"); the import and export: modules/imports/; reading and writing the files:
 * modules/imports/request-file.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TASK_TRACKER_MAX_BYTES } from '@portal/shared/core/practices';
import * as api from '@portal/shared/core/requests/api';
import { HttpError } from '../../../../lib/http-error';
import { readForm } from '../../../../lib/multipart';
import { requireAuth } from '../../../../plugins/app/auth';
import { invalidField, route } from '../../../../lib/contract';
import { policyCompany } from '../../../../plugins/app/policies';
import { exportRequestFile } from '../../../../modules/imports/request-export';
import { requestFileTemplate } from '../../../../modules/imports/request-file';
import { importRequestFile } from '../../../../modules/imports/request-import';
import { sendTrackerFile } from '../../../../modules/task-trackers/shared';

/** Staff who are not auditors manage requests (import); everyone else: 403 `forbidden`. */
async function managerOf(request: FastifyRequest) {
  const { user } = await requireAuth(request);
  if (!user.isTevora || user.isAuditor) throw new HttpError(403, 'forbidden');
  return user;
}

/** The uploaded file of an import form (`file`), within the upload limit, or 400 naming `file`. */
async function requestFileOf(request: FastifyRequest) {
  const form = await readForm(request, {
    files: {
      file: {
        maxBytes: TASK_TRACKER_MAX_BYTES,
        sizeRule: `must be at most ${TASK_TRACKER_MAX_BYTES / 1024 / 1024} MB`,
      },
    },
  });
  const file = form.files.find((f) => f.field === 'file');
  if (!file) throw invalidField('file', 'file is required: a .csv or .xlsx file of requests');
  return file;
}

export default async function requestImportExportRoutes(app: FastifyInstance) {
  const { db } = app;

  // All or nothing, in one transaction: a file with any bad row, or naming anything the company lacks, creates nothing.
  route(app, api.importRequests, async (request, reply) => {
    const company = policyCompany(request);
    const user = await managerOf(request);
    const file = await requestFileOf(request);
    const body = await importRequestFile(app, request, { company, actorId: user.id, file });
    return reply.code(201).send(body);
  });

  // What the list shows the caller with these filters and this sort, every page (at most REQUEST_EXPORT_MAX_ROWS).
  route(app, api.exportRequests, async (request, reply) => {
    const company = policyCompany(request);
    const { user } = await requireAuth(request);
    const { format, ...query } = request.query;
    const { bytes, fileName } = await exportRequestFile(db, { company, caller: user, format, query });
    return sendTrackerFile(reply, bytes, format, fileName);
  });

  route(app, api.getRequestFileTemplate, async (request, reply) => {
    const { format } = request.query;
    return sendTrackerFile(reply, await requestFileTemplate(format), format, `requests-template.${format}`);
  });
}
