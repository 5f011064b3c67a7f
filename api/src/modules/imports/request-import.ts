/**
 * Importing a file of evidence requests into a company (issue 8): the rows read (request-file.ts)
 * resolved against the company (assignees, projects, references taken), numbered and inserted in one
 * transaction with their history and audit entry, and the assignment notices queued, then delivered.
 * Contract: shared/src/core/requests ("Import and export files").
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { formatRequestReference, type RequestImportResult } from '@portal/shared/core/requests';
import type { CompanyRecord } from '../../db/companies';
import { allocateRequestNumbers, displayName, recordRequestEvents, type NewRequestEvent } from '../../db/requests';
import type { Database } from '../../db/schema';
import { insertInBatches } from '../../db/seed-projects';
import { isUniqueViolationOf, nowIso } from '../../db/values';
import { audit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import type { UploadedFile } from '../../lib/multipart';
import { RowProblems, quote } from '../../lib/spreadsheet';
import { deliverRequestNotices, queueRequestNotices, type RequestNotice } from '../requests/notices';
import { REQUEST_SHEET, readRequestFile, type RequestFileRow } from './request-file';

/** Values in one `in (...)` list, and rows in one multi-row insert: within every bind parameter limit. */
const IN_CHUNK = 1000;
const INSERT_BATCH = 200;
/** References the import's reply lists. */
const REPLY_REFERENCES = 100;

export function inChunks<T>(values: T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

const lower = (text: string) => text.toLowerCase();
interface Person {
  id: string;
  name: string;
}

/** A row resolved against the company: ready to insert. */
interface ImportedRequest {
  row: RequestFileRow;
  id: string;
  reference: string;
  number: number | null;
  projectId: string | null;
  users: Person[];
  teams: Person[];
}

/** What the company has that the rows may name: active client members by e-mail, teams and projects by name, references taken. */
async function companyNames(db: Kysely<Database>, companyId: string, rows: RequestFileRow[]) {
  const emails = [...new Set(rows.flatMap((r) => r.assignees.filter((a) => a.includes('@')).map(lower)))];
  const members = new Map<string, Person>();
  for (const part of inChunks(emails)) {
    const found = await db
      .selectFrom('users as u')
      .innerJoin('company_memberships as m', 'm.user_id', 'u.id')
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
      .where('m.company_id', '=', companyId)
      .where('m.access_revoked_at', 'is', null)
      .where('u.status', '=', 'active')
      .where('u.is_tevora', '=', false)
      .where(sql`lower(u.email)`, 'in', part)
      .execute();
    for (const u of found)
      members.set(lower(u.email), {
        id: u.id,
        name: displayName({ firstName: u.first_name, lastName: u.last_name, email: u.email }),
      });
  }

  const teams = new Map<string, Person>();
  for (const t of await db.selectFrom('teams').select(['id', 'name']).where('company_id', '=', companyId).execute()) {
    if (!teams.has(lower(t.name))) teams.set(lower(t.name), { id: t.id, name: t.name });
  }

  // Titles two projects share (ignoring case) name neither: the row must say which another way.
  const projects = new Map<string, { id: string; count: number }>();
  for (const p of await db
    .selectFrom('projects')
    .select(['id', 'title'])
    .where('company_id', '=', companyId)
    .execute()) {
    const known = projects.get(lower(p.title));
    projects.set(lower(p.title), { id: known?.id ?? p.id, count: (known?.count ?? 0) + 1 });
  }

  const references = new Set<string>();
  const numbers = new Set<number>();
  const given = rows.flatMap((r) => (r.reference ? [r] : []));
  for (const part of inChunks(given)) {
    const taken = await db
      .selectFrom('requests')
      .select(['reference', 'number'])
      .where('company_id', '=', companyId)
      .where((eb) => {
        const byNumber = part.flatMap((r) => (r.referenceNumber !== null ? [r.referenceNumber] : []));
        const byReference = eb(
          sql`lower(reference)`,
          'in',
          part.map((r) => lower(r.reference!)),
        );
        return byNumber.length ? eb.or([byReference, eb('number', 'in', byNumber)]) : byReference;
      })
      .execute();
    for (const t of taken) {
      references.add(lower(t.reference));
      if (t.number !== null) numbers.add(Number(t.number));
    }
  }
  return { members, teams, projects, references, numbers };
}

/** The rows resolved against the company; every problem of every row is reported together (400 `malformed_request_file`). */
async function resolveRows(
  db: Kysely<Database>,
  company: CompanyRecord,
  rows: RequestFileRow[],
): Promise<Omit<ImportedRequest, 'reference' | 'number'>[]> {
  const names = await companyNames(db, company.id, rows);
  const problems = new RowProblems(REQUEST_SHEET);
  const resolved = rows.map((row) => {
    if (
      row.reference &&
      (names.references.has(lower(row.reference)) ||
        (row.referenceNumber !== null && names.numbers.has(row.referenceNumber)))
    ) {
      problems.add(row.row, 'Reference', `${quote(row.reference)} already exists in ${company.name}`);
    }
    const users: Person[] = [];
    const teams: Person[] = [];
    for (const name of row.assignees) {
      const found = name.includes('@') ? names.members.get(lower(name)) : names.teams.get(lower(name));
      if (!found)
        problems.add(row.row, 'Assignees', `${quote(name)} is not an active member or team of ${company.name}`);
      else (name.includes('@') ? users : teams).push(found);
    }
    let projectId: string | null = null;
    if (row.project) {
      const project = names.projects.get(lower(row.project));
      if (!project) problems.add(row.row, 'Project', `${quote(row.project)} is not a project of ${company.name}`);
      else if (project.count > 1)
        problems.add(
          row.row,
          'Project',
          `${quote(row.project)} is the title of ${project.count} projects of ${company.name}: rename one of them`,
        );
      else projectId = project.id;
    }
    return { row, id: randomUUID(), projectId, users, teams };
  });
  problems.throwIfAny();
  return resolved;
}

/**
 * Imports and creates of one company's requests run one after the other on PostgreSQL (a
 * transaction-scoped advisory lock; SQLite runs one write transaction at a time), so the numbers
 * allocated here are not taken meanwhile.
 */
async function lockRequestNumbers(trx: Kysely<Database>, companyId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${`request-numbers:${companyId}`}))`.execute(trx);
  }
}

/** References for the rows without one: the company's next numbers, after any the file gives in the api's form. */
async function numberRows(
  trx: Kysely<Database>,
  companyId: string,
  rows: Omit<ImportedRequest, 'reference' | 'number'>[],
): Promise<ImportedRequest[]> {
  const allocated = await allocateRequestNumbers(trx, companyId, rows.filter((r) => !r.row.reference).length);
  const fileTop = Math.max(0, ...rows.map((r) => r.row.referenceNumber ?? 0));
  const shift = allocated.length ? Math.max(0, fileTop + 1 - allocated[0]) : 0;
  let next = 0;
  return rows.map((r) => {
    if (r.row.reference) return { ...r, reference: r.row.reference, number: r.row.referenceNumber };
    const number = allocated[next++] + shift;
    return { ...r, reference: formatRequestReference(number), number };
  });
}

/** The requests, their assignees and their history, in batches. */
async function insertImported(
  trx: Kysely<Database>,
  companyId: string,
  actorId: string,
  requests: ImportedRequest[],
): Promise<void> {
  const now = nowIso();
  await insertInBatches(
    trx,
    'requests',
    requests.map(({ row, id, reference, number, projectId }) => ({
      id,
      company_id: companyId,
      project_id: projectId,
      task_id: null,
      control_id: null,
      reference,
      number,
      title: row.title,
      description: row.description,
      internal_note: null,
      priority: row.priority,
      due_date: row.dueDate,
      status: 'open' as const,
      return_reason: null,
      requester_id: actorId,
      created_by: actorId,
      created_at: now,
      updated_at: now,
      submitted_at: null,
      accepted_at: null,
      canceled_at: null,
    })),
    INSERT_BATCH,
  );
  await insertInBatches(
    trx,
    'request_assignees',
    requests.flatMap((r) => r.users.map((u) => ({ request_id: r.id, user_id: u.id }))),
  );
  await insertInBatches(
    trx,
    'request_teams',
    requests.flatMap((r) => r.teams.map((t) => ({ request_id: r.id, team_id: t.id }))),
  );
  const events = requests.flatMap((r): NewRequestEvent[] => [
    { requestId: r.id, actorId, type: 'imported', detail: {}, createdAt: now },
    ...(r.users.length || r.teams.length
      ? [
          {
            requestId: r.id,
            actorId,
            type: 'assigned' as const,
            detail: { users: r.users.map((u) => u.name), teams: r.teams.map((t) => t.name) },
            createdAt: now,
          },
        ]
      : []),
  ]);
  for (const part of inChunks(events, INSERT_BATCH)) await recordRequestEvents(trx, part);
}

/** One assignment notice per request: its people and the members of its teams (queueRequestNotices keeps those who see it). */
async function assignmentNotices(
  trx: Kysely<Database>,
  companyId: string,
  actorId: string,
  requests: ImportedRequest[],
): Promise<RequestNotice[]> {
  const teamIds = [...new Set(requests.flatMap((r) => r.teams.map((t) => t.id)))];
  const members = new Map<string, string[]>();
  for (const part of inChunks(teamIds)) {
    for (const m of await trx
      .selectFrom('team_members')
      .select(['team_id', 'user_id'])
      .where('team_id', 'in', part)
      .execute()) {
      members.set(m.team_id, [...(members.get(m.team_id) ?? []), m.user_id]);
    }
  }
  return requests.flatMap((r): RequestNotice[] => {
    const userIds = [...new Set([...r.users.map((u) => u.id), ...r.teams.flatMap((t) => members.get(t.id) ?? [])])];
    if (userIds.length === 0) return [];
    return [
      {
        kind: 'assigned',
        request: { id: r.id, companyId, reference: r.reference, title: r.row.title },
        actorId,
        userIds,
      },
    ];
  });
}

/**
 * A concurrent writer took a reference or number between the checks and the inserts (creates of
 * SQLite, or a writer that does not take the lock): answered 409, never a 500.
 */
async function settleTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      isUniqueViolationOf(
        error,
        'requests_company_reference_key',
        'requests_company_number_key',
        'requests.company_id, requests.number',
      )
    ) {
      throw new HttpError(
        409,
        'request_reference_taken',
        'A request was just created with a reference this file uses: try again.',
        [{ field: 'file', message: 'a reference was taken meanwhile: import the file again' }],
      );
    }
    throw error;
  }
}

/**
 * Imports `file` into `company` for `actorId`: all or nothing, in one transaction: a file with any bad
 * row, or naming anything the company lacks, creates nothing. The reply's body.
 */
export async function importRequestFile(
  app: FastifyInstance,
  request: FastifyRequest,
  { company, actorId, file }: { company: CompanyRecord; actorId: string; file: UploadedFile },
): Promise<RequestImportResult> {
  const { db } = app;
  const content = await readRequestFile(file.filename, file.buffer);
  const { imported, pending } = await settleTaken(() =>
    db.transaction().execute(async (trx) => {
      await lockRequestNumbers(trx, company.id);
      const requests = await numberRows(trx, company.id, await resolveRows(trx, company, content.requests));
      await insertImported(trx, company.id, actorId, requests);
      await audit(
        request,
        {
          action: 'request.import',
          targetType: 'company',
          targetId: company.id,
          targetLabel: company.name,
          companyId: company.id,
          after: {
            fileName: file.filename,
            rows: content.rows,
            created: requests.length,
            references: requests.slice(0, REPLY_REFERENCES).map((r) => r.reference),
          },
        },
        trx,
      );
      return {
        imported: requests,
        pending: await queueRequestNotices(trx, await assignmentNotices(trx, company.id, actorId, requests)),
      };
    }),
  );
  void deliverRequestNotices(app, request.log, pending);
  return {
    rows: content.rows,
    created: imported.length,
    references: imported.slice(0, REPLY_REFERENCES).map((r) => r.reference),
  };
}
