import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { TASK_TRACKER_MAX_ERRORS, type ProjectImportResult, type TrackerTask } from '@portal/shared/core/practices';
import * as api from '@portal/shared/core/projects/api';
import { findPractice } from '../../../../db/practices';
import { findProjectFields, projectHasTasks, updateProjectFields } from '../../../../db/projects';
import type { Database } from '../../../../db/schema';
import {
  applicableTrackers,
  caseless,
  findTaskTracker,
  copyWorkIntoProject,
  projectTasksByReference,
  trackerContent,
  type ProjectWork,
} from '../../../../db/task-trackers';
import { isForeignKeyViolation, isUniqueViolationOf } from '../../../../db/values';
import { audit } from '../../../../lib/audit';
import { HttpError, type ErrorDetail } from '../../../../lib/http-error';
import { readTaskTrackerFile, type TrackerFileContent } from '../../../../modules/task-trackers/task-tracker-file';
import { requireAuth } from '../../../../plugins/app/auth';
import { route } from '../../../../lib/contract';
import { policyProject } from '../../../../plugins/app/policies';
import {
  readTrackerForm,
  taskTrackerNotFound,
  trackerFileOf,
  wrongStatus,
} from '../../../../modules/task-trackers/shared';
import { lockWorkOf } from '../../../../modules/projects/work';

/** The first problems, as the contract reports them: at most TASK_TRACKER_MAX_ERRORS details. */
const firstProblems = (details: ErrorDetail[]) => details.slice(0, TASK_TRACKER_MAX_ERRORS);

const referenceConflict = (details: ErrorDetail[]) =>
  new HttpError(409, 'task_reference_id_already_exist_on_project', undefined, firstProblems(details));

/**
 * A concurrent writer changed the project between the checks and the inserts: a unique index refused
 * a Task ID or a Control ID taken meanwhile, or a foreign key a parent task deleted meanwhile. Answered
 * as the checks would have, never as a 500; other failures stay what they are.
 */
async function settleTaken<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, 'controls_project_id_name_unique')) {
      throw new HttpError(
        409,
        'control_name_must_be_unique',
        'A control was just added to the project with a Control ID this work uses: try again.',
        [{ field, message: 'a Control ID was taken meanwhile' }],
      );
    }
    if (isUniqueViolationOf(error, 'tasks_project_id_reference_id_unique')) {
      throw referenceConflict([
        { field, message: 'A Task ID was just taken by another task of this project: try again.' },
      ]);
    }
    if (isForeignKeyViolation(error)) {
      const message =
        'A task this work names as a parent was just deleted from the project: check the Parent Task IDs and try again.';
      throw new HttpError(404, 'task_not_found', message, [{ field, message }]);
    }
    throw error;
  }
}

/**
 * Imports and applies to one project run one after the other (on PostgreSQL a transaction-scoped
 * advisory lock; SQLite runs one transaction at a time), so the second sees the first's Task IDs and
 * answers the 409 with its rows named. Then the canceled-project rule (lockWorkOf).
 */
async function lockImportsOf(trx: Kysely<Database>, projectId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`project-task-import:${projectId}`}))`.execute(trx);
  }
  await lockWorkOf(trx, projectId);
}

/** The template's tasks to apply, in template order (each top-level task, then its subtasks): all, or those of `taskIds`. */
function chosenTasks(
  tasks: TrackerTask[],
  taskIds: string[] | undefined,
): { task: Omit<TrackerTask, 'subtasks'>; parentIndex: number | null }[] {
  const chosen = taskIds ? new Set(taskIds) : null;
  if (chosen) {
    const known = new Set(tasks.flatMap((t) => [t.id, ...t.subtasks.map((s) => s.id)]));
    const strangers = [...chosen].filter((id) => !known.has(id));
    if (strangers.length) {
      throw new HttpError(404, 'task_tracker_task_not_found', undefined, [
        {
          field: 'taskIds',
          message: `taskIds holds tasks that are not of this template: ${strangers.slice(0, 20).join(', ')}`,
        },
      ]);
    }
    const orphans = tasks.flatMap((t) =>
      chosen.has(t.id) ? [] : t.subtasks.filter((s) => chosen.has(s.id)).map((s) => ({ parent: t, subtask: s })),
    );
    if (orphans.length) {
      throw new HttpError(
        400,
        'task_not_supported',
        `The subtask "${orphans[0].subtask.title}" needs its parent task "${orphans[0].parent.title}" chosen too.`,
        firstProblems(
          orphans.map(({ parent, subtask }) => ({
            field: 'taskIds',
            message: `Subtask "${subtask.title}" needs its parent task "${parent.title}"`,
          })),
        ),
      );
    }
  }
  const out: { task: Omit<TrackerTask, 'subtasks'>; parentIndex: number | null }[] = [];
  for (const { subtasks, ...task } of tasks) {
    if (chosen && !chosen.has(task.id)) continue;
    const parentIndex = out.length;
    out.push({ task, parentIndex: null });
    for (const subtask of subtasks) if (!chosen || chosen.has(subtask.id)) out.push({ task: subtask, parentIndex });
  }
  return out;
}

/**
 * A file's work for the project: parents named by a Task ID of the file, or else of a top-level task
 * of the project (400 malformed_task_tracker naming the row otherwise); Task IDs the project already
 * has are a 409 naming the rows.
 */
async function fileWork(trx: Kysely<Database>, projectId: string, content: TrackerFileContent): Promise<ProjectWork> {
  const inFile = new Map<string, number>();
  content.tasks.forEach((task, i) => {
    if (task.referenceId) inFile.set(caseless(task.referenceId), i);
  });
  const external = content.tasks.flatMap((t) =>
    t.parentReferenceId && !inFile.has(caseless(t.parentReferenceId)) ? [t.parentReferenceId] : [],
  );
  const taken = await projectTasksByReference(trx, projectId, [
    ...content.tasks.flatMap((t) => (t.referenceId ? [t.referenceId] : [])),
    ...external,
  ]);

  const parentProblems: ErrorDetail[] = [];
  const tasks = content.tasks.map((task): ProjectWork['tasks'][number] => {
    let parent: ProjectWork['tasks'][number]['parent'] = null;
    if (task.parentReferenceId) {
      const index = inFile.get(caseless(task.parentReferenceId));
      const existing = taken.get(caseless(task.parentReferenceId));
      if (index !== undefined && !content.tasks[index].parentReferenceId) parent = { index };
      else if (index === undefined && existing && existing.parentId === null) parent = { taskId: existing.id };
      else {
        parentProblems.push({
          field: 'file',
          message: `Row ${task.row}, Parent Task ID: ${task.parentReferenceId} is not the Task ID of a top-level task of this file or of the project`,
        });
      }
    }
    return {
      referenceId: task.referenceId,
      title: task.title,
      description: task.description,
      parent,
      controlNames: task.controlName ? [task.controlName] : [],
    };
  });
  if (parentProblems.length)
    throw new HttpError(400, 'malformed_task_tracker', parentProblems[0].message, firstProblems(parentProblems));

  const conflicts = content.tasks.flatMap((task) => {
    const existing = task.referenceId ? taken.get(caseless(task.referenceId)) : undefined;
    return existing
      ? [
          {
            field: 'file',
            message: `Row ${task.row}, Task ID: ${task.referenceId} is already the Task ID of "${existing.title}" in this project`,
          },
        ]
      : [];
  });
  if (conflicts.length) throw referenceConflict(conflicts);

  return {
    tasks,
    controls: content.controls.map((c) => ({
      name: c.name,
      title: c.title,
      description: c.description,
      pointsOfFocus: c.pointsOfFocus.map((name) => ({ name, description: null })),
    })),
  };
}

/** Applying a practice's template to a project and importing a task tracker file into it (issue 7): all or nothing. */
export default async function projectTaskTrackersRoutes(app: FastifyInstance) {
  const { db } = app;

  async function caller(request: FastifyRequest) {
    return (await requireAuth(request)).user;
  }

  route(app, api.listApplicableTaskTrackers, async (request) => {
    const { project } = policyProject(request);
    const fields = await findProjectFields(db, project.id);
    return { results: await applicableTrackers(db, fields?.practiceId ?? null) };
  });

  route(app, api.applyTaskTrackers, async (request) => {
    const { project } = policyProject(request);
    const input = request.body;
    const user = await caller(request);
    return settleTaken('taskTrackerId', () =>
      db.transaction().execute(async (trx) => {
        await lockImportsOf(trx, project.id);
        const practice = await findPractice(trx, input.practiceId);
        if (!practice || practice.status !== 'active') {
          throw new HttpError(400, 'invalid_practice', undefined, [
            { field: 'practiceId', message: 'practiceId must name an active practice' },
          ]);
        }
        const tracker = await findTaskTracker(trx, input.taskTrackerId);
        if (!tracker || tracker.practiceId !== practice.id) throw taskTrackerNotFound();
        if (tracker.status !== 'published')
          throw wrongStatus(`Only a published template can be applied: ${tracker.name} is ${tracker.status}.`);

        // A project takes its template's practice; one of another practice may no longer change once it has tasks.
        const fields = await findProjectFields(trx, project.id);
        const practiceBefore = fields?.practiceId ?? null;
        if (practiceBefore !== practice.id) {
          if (practiceBefore && (await projectHasTasks(trx, project.id)))
            throw new HttpError(409, 'practices_can_not_be_changed_when_project_has_tasks');
          await updateProjectFields(trx, project.id, { practiceId: practice.id });
        }

        const content = await trackerContent(trx, tracker.id);
        const chosen = chosenTasks(content.tasks, input.taskIds);
        const taken = await projectTasksByReference(
          trx,
          project.id,
          chosen.flatMap(({ task }) => (task.referenceId ? [task.referenceId] : [])),
        );
        const conflicts = chosen.flatMap(({ task }) => {
          const existing = task.referenceId ? taken.get(caseless(task.referenceId)) : undefined;
          return existing
            ? [
                {
                  field: 'taskTrackerId',
                  message: `Template task "${task.title}": Task ID ${task.referenceId} is already the Task ID of "${existing.title}" in this project`,
                },
              ]
            : [];
        });
        if (conflicts.length) throw referenceConflict(conflicts);

        // Every control with all tasks; with a choice, the controls of the chosen tasks.
        const linked = new Set(chosen.flatMap(({ task }) => task.controls.map(caseless)));
        const controls = input.taskIds
          ? content.controls.filter((c) => linked.has(caseless(c.name)))
          : content.controls;
        const work: ProjectWork = {
          tasks: chosen.map(({ task, parentIndex }) => ({
            referenceId: task.referenceId,
            title: task.title,
            description: task.description,
            parent: parentIndex === null ? null : { index: parentIndex },
            controlNames: task.controls,
          })),
          controls: controls.map((c) => ({
            name: c.name,
            title: c.title,
            description: c.description,
            pointsOfFocus: c.pointsOfFocus.map((p) => ({ name: p.name, description: p.description })),
          })),
        };
        const counts = await copyWorkIntoProject(trx, project, user.id, work);
        await audit(
          request,
          {
            action: 'project.template.apply',
            targetType: 'project',
            targetId: project.id,
            targetLabel: project.title,
            companyId: project.companyId,
            before: practiceBefore !== practice.id ? { practiceId: practiceBefore } : undefined,
            after: {
              practiceId: practice.id,
              taskTrackerId: tracker.id,
              taskTracker: tracker.name,
              chosenTaskIds: input.taskIds ?? null,
              ...counts,
            },
          },
          trx,
        );
        return { rows: chosen.length, ...counts, practice: { id: practice.id, name: practice.name } };
      }),
    );
  });

  route(app, api.importTasks, async (request, reply) => {
    const { project } = policyProject(request);
    const user = await caller(request);
    const file = trackerFileOf(await readTrackerForm(request));
    const content = await readTaskTrackerFile(file.filename, file.buffer, { externalParents: true });
    const result = await settleTaken('file', () =>
      db.transaction().execute(async (trx): Promise<ProjectImportResult> => {
        await lockImportsOf(trx, project.id);
        const counts = await copyWorkIntoProject(trx, project, user.id, await fileWork(trx, project.id, content));
        await audit(
          request,
          {
            action: 'project.tasks.import',
            targetType: 'project',
            targetId: project.id,
            targetLabel: project.title,
            companyId: project.companyId,
            after: { fileName: file.filename, rows: content.rows, ...counts },
          },
          trx,
        );
        return { rows: content.rows, ...counts };
      }),
    );
    return reply.code(201).send(result);
  });
}
