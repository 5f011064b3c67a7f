import type { FastifyInstance } from 'fastify';
import type { PracticeSummary } from '@portal/shared/core/practices';
import * as api from '@portal/shared/core/practices/api';
import {
  findPracticeSummary,
  insertPractice,
  listPracticeSummaries,
  practiceNameTaken,
  staffOfPractice,
  updatePractice,
} from '../../../../db/practices';
import { audit } from '../../../../lib/audit';
import { HttpError } from '../../../../lib/http-error';
import { route } from '../../../../lib/contract';
import { changedFields } from '../../../../modules/projects/writes';
import { practiceNotFound, practiceOrThrow, settleUnique } from '../../../../modules/task-trackers/practices';

const nameTaken = () =>
  new HttpError(409, 'practice_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another practice' },
  ]);

/** Practice names, unique ignoring case (0010; 0003's case-sensitive constraint as PostgreSQL and SQLite name it). */
const PRACTICE_NAME_UNIQUE = ['practices_name_lower_unique', 'practices_name_key', 'practices.name'];

/** Practices: staff see them; staff who may edit practices create, rename, retire and restore them. */
export default async function practicesRoutes(app: FastifyInstance) {
  const { db } = app;

  async function summary(id: string): Promise<PracticeSummary> {
    const found = await findPracticeSummary(db, id);
    if (!found) throw practiceNotFound();
    return found;
  }

  // The staff-user settings page reads id, name, description and status from this list too.
  route(app, api.listPractices, async (request) => {
    const { query } = request;
    return { results: await listPracticeSummaries(db, { status: query.status, search: query.search || undefined }) };
  });

  route(app, api.createPractice, async (request, reply) => {
    const input = request.body;
    const id = await settleUnique(PRACTICE_NAME_UNIQUE, nameTaken, () =>
      db.transaction().execute(async (trx) => {
        if (await practiceNameTaken(trx, input.name)) throw nameTaken();
        const description = input.description ?? '';
        const practiceId = await insertPractice(trx, { name: input.name, description });
        await audit(
          request,
          {
            action: 'practice.create',
            targetType: 'practice',
            targetId: practiceId,
            targetLabel: input.name,
            after: { name: input.name, description, status: 'active' },
          },
          trx,
        );
        return practiceId;
      }),
    );
    return reply.code(201).send(await summary(id));
  });

  route(app, api.getPractice, async (request) => {
    const { id } = request.params;
    return { ...(await summary(id)), staff: await staffOfPractice(db, id) };
  });

  route(app, api.updatePractice, async (request) => {
    const { id } = request.params;
    const input = request.body;
    await settleUnique(PRACTICE_NAME_UNIQUE, nameTaken, () =>
      db.transaction().execute(async (trx) => {
        const practice = await practiceOrThrow(trx, id);
        // A description cleared (null) is stored empty, as a new practice without one.
        const changes = { ...input, description: input.description === null ? '' : input.description };
        if (changes.name !== undefined && (await practiceNameTaken(trx, changes.name, practice.id))) throw nameTaken();
        const { before, after } = changedFields(practice, changes, ['name', 'description', 'status']);
        if (Object.keys(after).length === 0) return;
        await updatePractice(trx, practice.id, after);
        // Retiring and restoring are recorded as such: the audit log's readers look for them.
        const action =
          after.status === 'retired'
            ? 'practice.retire'
            : after.status === 'active'
              ? 'practice.restore'
              : 'practice.update';
        await audit(
          request,
          {
            action,
            targetType: 'practice',
            targetId: practice.id,
            targetLabel: after.name ?? practice.name,
            before,
            after,
          },
          trx,
        );
      }),
    );
    return summary(id);
  });
}
