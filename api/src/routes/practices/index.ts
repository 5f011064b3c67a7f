import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  practiceCreateSchema,
  practicesQuerySchema,
  practiceUpdateSchema,
  type PracticeDetail,
  type PracticeSummary,
} from '@portal/shared/core/practices';
import {
  findPractice,
  findPracticeSummary,
  insertPractice,
  listPracticeSummaries,
  practiceNameTaken,
  staffOfPractice,
  updatePractice,
  type PracticeRecord,
} from '../../db/practices';
import type { Database } from '../../db/schema';
import { audit } from '../../lib/audit';
import { isUniqueViolationOf } from '../../db/values';
import { HttpError } from '../../lib/http-error';
import type { Policy } from '../../plugins/policies';
import { idParam, parseInput as parse } from '../projects/query';
import { changedFields } from '../projects/writes';

/** Staff holding the settings permission (not auditors). */
export const editPractices: Policy = { staff: 'users.editPractices' };

const PRACTICES = '/api/v1/practices';
const PRACTICE = `${PRACTICES}/:id`;

const practiceParamsSchema = z.object({ id: idParam('id') });

export const practiceNotFound = () => new HttpError(404, 'practice_not_found');
const nameTaken = () =>
  new HttpError(409, 'practice_name_taken', undefined, [
    { field: 'name', message: 'name is already used by another practice' },
  ]);

/** Practice names, unique ignoring case (0010; 0003's case-sensitive constraint as PostgreSQL and SQLite name it). */
const PRACTICE_NAME_UNIQUE = ['practices_name_lower_unique', 'practices_name_key', 'practices.name'];

/**
 * Runs `work`, which checks a name is free and then writes it. A concurrent writer may take the name
 * meanwhile: the unique index named among `names` refuses the write, answered as `conflict()` like the
 * check would have; any other failure stays what it is.
 */
export async function settleUnique<T>(
  names: readonly string[],
  conflict: () => HttpError,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolationOf(error, ...names)) throw conflict();
    throw error;
  }
}

export async function practiceOrThrow(db: Kysely<Database>, id: string): Promise<PracticeRecord> {
  const practice = await findPractice(db, id);
  if (!practice) throw practiceNotFound();
  return practice;
}

/** The practice, which must be active to take new templates: 400 invalid_practice when retired. */
export async function activePracticeOrThrow(db: Kysely<Database>, id: string): Promise<PracticeRecord> {
  const practice = await practiceOrThrow(db, id);
  if (practice.status !== 'active') {
    throw new HttpError(400, 'invalid_practice', undefined, [
      { field: 'id', message: `The practice "${practice.name}" is retired: restore it before adding templates to it.` },
    ]);
  }
  return practice;
}

/** Practices: staff see them; staff who may edit practices create, rename, retire and restore them. */
export default async function practicesRoutes(app: FastifyInstance) {
  const { db } = app;

  async function summary(id: string): Promise<PracticeSummary> {
    const found = await findPracticeSummary(db, id);
    if (!found) throw practiceNotFound();
    return found;
  }

  // The staff-user settings page reads id, name, description and status from this list too.
  app.get(PRACTICES, { config: { policy: 'staff' } }, async (request): Promise<{ results: PracticeSummary[] }> => {
    const query = parse(practicesQuerySchema, request.query, 'query parameter');
    return { results: await listPracticeSummaries(db, { status: query.status, search: query.search || undefined }) };
  });

  app.post(PRACTICES, { config: { policy: editPractices } }, async (request, reply) => {
    const input = parse(practiceCreateSchema, request.body, 'field');
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

  app.get(PRACTICE, { config: { policy: 'staff' } }, async (request): Promise<PracticeDetail> => {
    const { id } = parse(practiceParamsSchema, request.params, 'path parameter');
    return { ...(await summary(id)), staff: await staffOfPractice(db, id) };
  });

  app.patch(PRACTICE, { config: { policy: editPractices } }, async (request): Promise<PracticeSummary> => {
    const { id } = parse(practiceParamsSchema, request.params, 'path parameter');
    const input = parse(practiceUpdateSchema, request.body, 'field');
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
