import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type TaskTrackerFormat, type TaskTrackerSummary } from '@portal/shared/core/practices';
import * as api from '@portal/shared/core/practices/api';
import type { Database } from '../../../db/schema';
import {
  clearTrackerContent,
  deleteTaskTracker,
  findTaskTracker,
  insertTaskTracker,
  insertTrackerContent,
  listTaskTrackers,
  lockTaskTracker,
  taskTrackerNameTaken,
  trackerContent,
  updateTaskTracker,
} from '../../../db/task-trackers';
import { audit } from '../../../lib/audit';
import { checkFormFields } from '../../../lib/form-fields';
import { HttpError } from '../../../lib/http-error';
import {
  taskTrackerFileTemplate,
  trackerRows,
  writeTaskTrackerFile,
} from '../../../modules/task-trackers/task-tracker-export';
import { readTaskTrackerFile } from '../../../modules/task-trackers/task-tracker-file';
import { requireAuth } from '../../../plugins/app/auth';
import { route } from '../../../lib/contract';
import { changedFields } from '../../../modules/projects/writes';
import { activePracticeOrThrow, practiceOrThrow, settleUnique } from '../../../modules/task-trackers/practices';
import {
  readTrackerForm,
  sendTrackerFile,
  taskTrackerNotFound,
  trackerFileOf,
  wrongStatus,
} from '../../../modules/task-trackers/shared';

/** Template names, unique within a practice ignoring case (0008). */
const TRACKER_NAME_UNIQUE = ['task_trackers_practice_name_unique'];
const nameTaken = () =>
  new HttpError(409, 'task_tracker_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another template of this practice' },
  ]);

/** A file name safe on every system, from a template name. */
function exportFileName(name: string, format: TaskTrackerFormat): string {
  const unsafe = (c: string) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '\\/:*?"<>|'.includes(c);
  const base =
    [...name]
      .map((c) => (unsafe(c) ? '_' : c))
      .join('')
      .replace(/^[.\s]+|[.\s]+$/g, '')
      .slice(0, 120) || 'task-tracker';
  return `${base}.${format}`;
}

async function trackerOrThrow(db: Kysely<Database>, id: string): Promise<TaskTrackerSummary> {
  const tracker = await findTaskTracker(db, id);
  if (!tracker) throw taskTrackerNotFound();
  return tracker;
}

/** Task tracker templates of practices (issue 7): staff read them; staff who may edit practices write them. */
export default async function taskTrackersRoutes(app: FastifyInstance) {
  const { db } = app;

  async function summary(id: string): Promise<TaskTrackerSummary> {
    return trackerOrThrow(db, id);
  }

  route(app, api.listTaskTrackers, async (request) => {
    const practice = await practiceOrThrow(db, request.params.id);
    return { results: await listTaskTrackers(db, practice.id) };
  });

  route(app, api.createTaskTracker, async (request, reply) => {
    const { id } = request.params;
    const input = request.body;
    const { user } = await requireAuth(request);
    const trackerId = await settleUnique(TRACKER_NAME_UNIQUE, nameTaken, () =>
      db.transaction().execute(async (trx) => {
        const practice = await activePracticeOrThrow(trx, id);
        if (await taskTrackerNameTaken(trx, practice.id, input.name)) throw nameTaken();
        const description = input.description ?? '';
        const created = await insertTaskTracker(trx, {
          practiceId: practice.id,
          name: input.name,
          description,
          createdBy: user.id,
        });
        await audit(
          request,
          {
            action: 'taskTracker.create',
            targetType: 'taskTracker',
            targetId: created,
            targetLabel: input.name,
            after: { practiceId: practice.id, name: input.name, description, status: 'draft' },
          },
          trx,
        );
        return created;
      }),
    );
    return reply.code(201).send(await summary(trackerId));
  });

  // A new draft made from a file, in one transaction: a file with any bad row leaves nothing behind.
  route(app, api.importTaskTracker, async (request, reply) => {
    const { id } = request.params;
    const { user } = await requireAuth(request);
    const practice = await activePracticeOrThrow(db, id);
    const form = await readTrackerForm(request);
    const input = checkFormFields(api.importTaskTracker.form.fields, form.fields);
    const file = trackerFileOf(form);
    // Before the file is parsed: a taken name costs no parsing.
    if (await taskTrackerNameTaken(db, practice.id, input.name)) throw nameTaken();
    const content = await readTaskTrackerFile(file.filename, file.buffer);
    const result = await settleUnique(TRACKER_NAME_UNIQUE, nameTaken, () =>
      db.transaction().execute(async (trx) => {
        await activePracticeOrThrow(trx, practice.id);
        if (await taskTrackerNameTaken(trx, practice.id, input.name)) throw nameTaken();
        const description = input.description ?? '';
        const trackerId = await insertTaskTracker(trx, {
          practiceId: practice.id,
          name: input.name,
          description,
          createdBy: user.id,
        });
        const counts = await insertTrackerContent(trx, trackerId, content);
        await audit(
          request,
          {
            action: 'taskTracker.import',
            targetType: 'taskTracker',
            targetId: trackerId,
            targetLabel: input.name,
            after: {
              practiceId: practice.id,
              name: input.name,
              description,
              status: 'draft',
              fileName: file.filename,
              rows: content.rows,
              ...counts,
            },
          },
          trx,
        );
        return { trackerId, counts };
      }),
    );
    return reply.code(201).send({ tracker: await summary(result.trackerId), rows: content.rows, ...result.counts });
  });

  // Before TRACKER: a static segment, for every signed-in user (project writers import files too).
  route(app, api.getTaskTrackerFileTemplate, async (request, reply) => {
    const { format } = request.query;
    return sendTrackerFile(reply, await taskTrackerFileTemplate(format), format, `task-tracker-template.${format}`);
  });

  route(app, api.getTaskTracker, async (request) => {
    const tracker = await trackerOrThrow(db, request.params.trackerId);
    const practice = await practiceOrThrow(db, tracker.practiceId);
    return {
      ...tracker,
      practice: { id: practice.id, name: practice.name, status: practice.status },
      ...(await trackerContent(db, tracker.id)),
    };
  });

  route(app, api.updateTaskTracker, async (request) => {
    const { trackerId } = request.params;
    const input = request.body;
    await settleUnique(TRACKER_NAME_UNIQUE, nameTaken, () =>
      db.transaction().execute(async (trx) => {
        if (!(await lockTaskTracker(trx, trackerId))) throw taskTrackerNotFound();
        const tracker = await trackerOrThrow(trx, trackerId);
        const changes = { ...input, description: input.description === null ? '' : input.description };
        const { before, after } = changedFields(tracker, changes, ['name', 'description', 'status']);
        if (Object.keys(after).length === 0) return;
        if (after.name !== undefined && (await taskTrackerNameTaken(trx, tracker.practiceId, after.name, tracker.id)))
          throw nameTaken();
        if (after.status === 'published' && tracker.taskCount === 0)
          throw wrongStatus('A template without tasks cannot be published: import its tasks first.');
        await updateTaskTracker(trx, tracker.id, after);
        await audit(
          request,
          {
            action: 'taskTracker.update',
            targetType: 'taskTracker',
            targetId: tracker.id,
            targetLabel: after.name ?? tracker.name,
            before,
            after,
          },
          trx,
        );
      }),
    );
    return summary(trackerId);
  });

  route(app, api.deleteTaskTracker, async (request, reply) => {
    const { trackerId } = request.params;
    await db.transaction().execute(async (trx) => {
      if (!(await lockTaskTracker(trx, trackerId))) throw taskTrackerNotFound();
      const tracker = await trackerOrThrow(trx, trackerId);
      await deleteTaskTracker(trx, tracker.id);
      // Projects keep what was applied from it: applying copied the work.
      await audit(
        request,
        {
          action: 'taskTracker.delete',
          targetType: 'taskTracker',
          targetId: tracker.id,
          targetLabel: tracker.name,
          before: {
            practiceId: tracker.practiceId,
            name: tracker.name,
            status: tracker.status,
            taskCount: tracker.taskCount,
            controlCount: tracker.controlCount,
            pointOfFocusCount: tracker.pointOfFocusCount,
          },
        },
        trx,
      );
    });
    return reply.code(204).send();
  });

  // Replaces a draft's content with a file's, all or nothing.
  route(app, api.replaceTaskTrackerContent, async (request) => {
    const { trackerId } = request.params;
    const current = await trackerOrThrow(db, trackerId);
    if (current.status !== 'draft') throw wrongStatus('Only a draft template takes a file: unpublish it first.');
    const file = trackerFileOf(await readTrackerForm(request));
    const content = await readTaskTrackerFile(file.filename, file.buffer);
    const counts = await db.transaction().execute(async (trx) => {
      const status = await lockTaskTracker(trx, trackerId);
      if (!status) throw taskTrackerNotFound();
      if (status !== 'draft') throw wrongStatus('Only a draft template takes a file: unpublish it first.');
      const before = await trackerOrThrow(trx, trackerId);
      await clearTrackerContent(trx, trackerId);
      const inserted = await insertTrackerContent(trx, trackerId, content);
      await updateTaskTracker(trx, trackerId, {});
      await audit(
        request,
        {
          action: 'taskTracker.replace',
          targetType: 'taskTracker',
          targetId: trackerId,
          targetLabel: before.name,
          before: { tasks: before.taskCount, controls: before.controlCount, pointsOfFocus: before.pointOfFocusCount },
          after: { fileName: file.filename, rows: content.rows, ...inserted },
        },
        trx,
      );
      return inserted;
    });
    return { tracker: await summary(trackerId), rows: content.rows, ...counts };
  });

  route(app, api.exportTaskTracker, async (request, reply) => {
    const { trackerId } = request.params;
    const { format } = request.query;
    const tracker = await trackerOrThrow(db, trackerId);
    const { tasks, controls } = await trackerContent(db, tracker.id);
    const rows = trackerRows(
      tasks.flatMap((task) => [
        {
          referenceId: task.referenceId,
          parentReferenceId: null,
          title: task.title,
          description: task.description,
          controlName: task.controls[0] ?? null,
        },
        ...task.subtasks.map((sub) => ({
          referenceId: sub.referenceId,
          parentReferenceId: task.referenceId,
          title: sub.title,
          description: sub.description,
          controlName: sub.controls[0] ?? null,
        })),
      ]),
      controls.map((c) => ({
        name: c.name,
        title: c.title,
        description: c.description,
        pointsOfFocus: c.pointsOfFocus.map((p) => p.name),
      })),
    );
    return sendTrackerFile(
      reply,
      await writeTaskTrackerFile(rows, format),
      format,
      exportFileName(tracker.name, format),
    );
  });
}
