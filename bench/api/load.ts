/**
 * Bulk-loads the benchmark's tasks with set-based SQL: one INSERT … SELECT over a number series
 * (PostgreSQL generate_series, SQLite a recursive CTE), the tasks table's secondary indexes dropped
 * before and rebuilt after (building an index from sorted rows beats maintaining seven of them row by
 * row), then ANALYZE (PostgreSQL: VACUUM ANALYZE, as autovacuum would have done on a live table).
 *
 * Row n (0 … total-1) belongs to company slot n % 10: slot 0 is Acme Corp (so a tenth of the rows,
 * interleaved in time with everyone else's), slots 1-9 are bench companies. Within a company, the
 * part (n / 10) % 4 picks the project: Acme's parts 0 and 1 both go to its large project (half of
 * Acme's rows), parts 2 and 3 to two smaller ones; each bench company has four projects. A fifth of
 * the rows are subtasks: those with (n / 40) % 5 = 4, each of row n - 40 (same slot and part, so the
 * same project; and a top-level task).
 * Tasks are created a minute apart, the newest a day ago; ids are UUID-shaped, scrambled from n so
 * they arrive in random order like the api's randomUUID ids.
 */
import { randomUUID } from 'crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CLOSED_TASK_STATUSES } from '@portal/shared/core/projects';
import { insertCompany } from '../../api/src/db/companies';
import type { Dialect } from '../../api/src/db/database';
import type { Database } from '../../api/src/db/schema';

export const COMPANY_SLOTS = 10;
export const PARTS = 4;

export interface LoadPlan {
  total: number;
  acmeId: string;
  /** Who created the tasks (a staff user). */
  creatorId: string;
  /** Acme's client members: its tasks get one of them as assignee. */
  acmeAssignees: string[];
  now: number;
}

export interface LoadResult {
  /** Acme's projects: the large one first. */
  acmeProjects: { id: string; title: string }[];
  acmeTasks: number;
  tasks: number;
  /** Seconds per step. */
  timings: Record<string, number>;
}

/** Scrambles n (a bijection on 32 bits): pseudo-random and the same on both databases. */
const hashOf = (n: RawBuilder<unknown>) => sql`((${n} * 2654435761) % 4294967296)`;

function taskId(dialect: Dialect, n: RawBuilder<unknown>): RawBuilder<string> {
  // UUID-shaped: 8 scrambled hex digits, then n itself (unique)
  return dialect === 'sqlite'
    ? sql<string>`printf('%08x-0000-4000-8000-%012x', ${hashOf(n)}, ${n})`
    : sql<string>`lpad(to_hex(${hashOf(n)}), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0')`;
}

async function timed<T>(timings: Record<string, number>, step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings[step] = (performance.now() - started) / 1000;
  return result;
}

/** The tasks table's own indexes as `create index` statements (whatever the migrations made), the primary key aside. */
async function secondaryIndexes(
  db: Kysely<Database>,
  dialect: Dialect,
): Promise<{ name: string; definition: string }[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
      sql: string;
    }>`select name, sql from sqlite_master where type = 'index' and tbl_name = 'tasks' and sql is not null`.execute(db);
    return rows.map((r) => ({ name: r.name, definition: r.sql }));
  }
  const { rows } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = 'tasks'
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = (select oid from pg_namespace where nspname = current_schema()))`.execute(
    db,
  );
  return rows;
}

export async function loadTasks(pool: Kysely<Database>, dialect: Dialect, plan: LoadPlan): Promise<LoadResult> {
  // one connection throughout: the session settings below hold for the statements that follow
  return pool.connection().execute((db) => load(db, dialect, plan));
}

/** Session settings for a bulk load, and how to put them back (the api then runs as configured). */
async function bulkSettings(db: Kysely<Database>, dialect: Dialect): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    // foreign keys checked per row would double the insert time (the rows are consistent by construction);
    // a bigger page cache and in-memory sorts speed up the index builds
    const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`pragma cache_size = -262144`.execute(db);
    await sql`pragma temp_store = memory`.execute(db);
    return async () => {
      await sql`pragma foreign_keys = on`.execute(db);
      await sql.raw(`pragma cache_size = ${Number(rows[0].cache_size)}`).execute(db);
      await sql`pragma temp_store = default`.execute(db);
    };
  }
  await sql`set maintenance_work_mem = '256MB'`.execute(db);
  await sql`set synchronous_commit = off`.execute(db);
  // skips the foreign-key triggers; only a superuser may, and the load works without it
  const replica = await sql`set session_replication_role = replica`.execute(db).then(
    () => true,
    () => false,
  );
  return async () => {
    if (replica) await sql`reset session_replication_role`.execute(db);
    await sql`reset synchronous_commit`.execute(db);
    await sql`reset maintenance_work_mem`.execute(db);
  };
}

async function load(db: Kysely<Database>, dialect: Dialect, plan: LoadPlan): Promise<LoadResult> {
  const timings: Record<string, number> = {};
  const nowIso = new Date(plan.now).toISOString();

  // Nine bench companies with four projects each, and three more Acme projects.
  const slots: { slot: number; part: number; projectId: string; companyId: string }[] = [];
  const acmeProjects = [
    { id: randomUUID(), title: 'Bench Acme Evidence Library' },
    { id: randomUUID(), title: 'Bench Acme Vendor Reviews' },
    { id: randomUUID(), title: 'Bench Acme Policy Attestations' },
  ];
  const projects: { id: string; company_id: string; title: string }[] = acmeProjects.map((p) => ({
    ...p,
    company_id: plan.acmeId,
  }));
  [0, 0, 1, 2].forEach((project, part) =>
    slots.push({ slot: 0, part, projectId: acmeProjects[project].id, companyId: plan.acmeId }),
  );
  await timed(timings, 'companies and projects', async () => {
    for (let slot = 1; slot < COMPANY_SLOTS; slot++) {
      const companyId = await insertCompany(db, {
        name: `Bench Client ${slot}`,
        modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
      });
      for (let part = 0; part < PARTS; part++) {
        const project = { id: randomUUID(), company_id: companyId, title: `Bench Client ${slot} Project ${part + 1}` };
        projects.push(project);
        slots.push({ slot, part, projectId: project.id, companyId });
      }
    }
    await db
      .insertInto('projects')
      .values(
        projects.map((p) => ({ ...p, status: 'active', type: 'Assessment', created_at: nowIso, updated_at: nowIso })),
      )
      .execute();
    // the lookup the bulk insert joins: (slot, part) -> project and company
    await sql`create table bench_slots (slot integer not null, part integer not null, project_id text not null, company_id text not null, primary key (slot, part))`.execute(
      db,
    );
    await db
      .insertInto('bench_slots' as never)
      .values(
        slots.map((s) => ({ slot: s.slot, part: s.part, project_id: s.projectId, company_id: s.companyId })) as never,
      )
      .execute();
    await sql`create table bench_people (i integer primary key, user_id text not null)`.execute(db);
    await db
      .insertInto('bench_people' as never)
      .values(plan.acmeAssignees.map((user_id, i) => ({ i, user_id })) as never)
      .execute();
  });

  const indexes = await secondaryIndexes(db, dialect);
  await timed(timings, 'drop indexes', async () => {
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  });

  const total = plan.total;
  const n = sql`n`;
  const h = hashOf(n);
  // the newest a day ago, a minute apart
  const newest = Math.floor(plan.now / 1000) - 86_400;
  const createdSec = sql`(${sql.lit(newest - total * 60)} + n * 60)`;
  const created =
    dialect === 'sqlite'
      ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${createdSec}, 'unixepoch')`
      : sql`to_timestamp(${createdSec})`;
  const completed =
    dialect === 'sqlite'
      ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${createdSec} + 86400, 'unixepoch')`
      : sql`to_timestamp(${createdSec} + 86400)`;
  const due =
    dialect === 'sqlite'
      ? sql`strftime('%Y-%m-%d', ${createdSec} + (${h} % 90) * 86400, 'unixepoch')`
      : sql`to_char(to_timestamp(${createdSec} + (${h} % 90) * 86400) at time zone 'UTC', 'YYYY-MM-DD')`;
  // 30% open, 20% in progress, 5% incomplete, 10% in review, 30% completed, 5% not applicable
  const bucket = sql`((${h} / 65536) % 20)`;
  const status = sql`case when ${bucket} < 6 then 'OPEN' when ${bucket} < 10 then 'IN_PROGRESS' when ${bucket} < 11 then 'INCOMPLETE'
    when ${bucket} < 13 then 'IN_REVIEW' when ${bucket} < 19 then 'COMPLETED' else 'NOT_APPLICABLE' end`;
  const isSubtask = sql`((n / 40) % 5 = 4)`;
  const title = sql`case (${h} / 1048576) % 4 when 0 then 'Request evidence: access review sample ' when 1 then 'Walkthrough: change ticket '
    when 2 then 'Test a sample: vendor contract ' else 'Upload evidence: policy attestation ' end || cast(n as text)`;
  const series =
    dialect === 'sqlite'
      ? sql`(with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${sql.lit(total - 1)}) select n from seq) as series`
      : sql`generate_series(0, ${sql.lit(total - 1)}) as series(n)`;
  const select = sql`
    select ${taskId(dialect, n)}, s.project_id, s.company_id,
      case when ${isSubtask} then ${taskId(dialect, sql`(n - 40)`)} end,
      'BT-' || cast(n as text), ${title}, ${status}, ${due}, ${plan.creatorId}, ${created}, ${created},
      case when ${status} = 'COMPLETED' then ${completed} end,
      case when ${status} in ('COMPLETED', 'NOT_APPLICABLE') then ${completed} end
    from ${series}
    join bench_slots s on s.slot = n % ${sql.lit(COMPANY_SLOTS)} and s.part = (n / ${sql.lit(COMPANY_SLOTS)}) % ${sql.lit(PARTS)}`;
  const columns = sql`(id, project_id, company_id, parent_id, reference_id, title, status, due_date, created_by, created_at, updated_at, completed_at, closed_at)`;
  // Acme's tasks are the ones measured: they get an assignee each and a comment on one in seven.
  const acmeSeries =
    dialect === 'sqlite'
      ? sql`(with recursive seq(n) as (select 0 union all select n + 10 from seq where n < ${sql.lit(total - 10)}) select n from seq) as series`
      : sql`generate_series(0, ${sql.lit(total - 1)}, 10) as series(n)`;

  const restore = await bulkSettings(db, dialect);
  try {
    await timed(timings, `insert ${total.toLocaleString('en-US')} tasks`, () =>
      sql`insert into tasks ${columns} ${select}`.execute(db),
    );
    await timed(timings, 'assignees and comments', async () => {
      await sql`insert into task_assignees (task_id, user_id)
        select ${taskId(dialect, n)}, p.user_id from ${acmeSeries} join bench_people p on p.i = ${h} % ${sql.lit(plan.acmeAssignees.length)}`.execute(
        db,
      );
      const commentId =
        dialect === 'sqlite'
          ? sql`printf('%08x-0000-4000-9000-%012x', ${h}, n)`
          : sql`lpad(to_hex(${h}), 8, '0') || '-0000-4000-9000-' || lpad(to_hex(n), 12, '0')`;
      await sql`insert into task_comments (id, task_id, author_id, body, created_at)
        select ${commentId}, ${taskId(dialect, n)}, ${plan.creatorId}, 'Evidence uploaded, ready for review.', ${completed}
        from ${acmeSeries} where ${h} % 7 = 0`.execute(db);
    });

    // Each task's subtask and comment counts, which the skipped triggers keep too (SQLite's ran): set-based,
    // before the indexes are rebuilt, so the rows it writes again have no secondary index to update.
    if (dialect === 'postgres') {
      await timed(timings, 'subtask and comment counts', async () => {
        await sql`
          update tasks t set subtask_count = d.n, subtasks_done = d.done
          from (
            select parent_id, count(*) as n, count(*) filter (where status in (${sql.join(CLOSED_TASK_STATUSES.map((s) => sql.lit(s)))})) as done
            from tasks where parent_id is not null group by parent_id
          ) d
          where t.id = d.parent_id
        `.execute(db);
        await sql`
          update tasks t set comment_count = d.n
          from (select task_id, count(*) as n from task_comments group by task_id) d
          where t.id = d.task_id
        `.execute(db);
      });
    }
    await timed(timings, 'rebuild indexes', async () => {
      for (const index of indexes) await sql.raw(index.definition).execute(db);
    });
    // On PostgreSQL the load ran with session_replication_role = replica, which skips every trigger,
    // those that keep project_task_counts too: count again, set-based, as a bulk loader must.
    await timed(timings, 'task counts', () =>
      sql`
        insert into project_task_counts (project_id, top_level)
        select p.id, (select count(*) from tasks t where t.project_id = p.id and t.parent_id is null) from projects p where true
        on conflict (project_id) do update set top_level = excluded.top_level
      `.execute(db),
    );
    await timed(timings, 'analyze', async () => {
      await sql`drop table bench_slots`.execute(db);
      await sql`drop table bench_people`.execute(db);
      if (dialect === 'sqlite') {
        await sql`analyze`.execute(db);
        // the load went through the write-ahead log: fold it into the database file, as a live one would be
        await sql`pragma wal_checkpoint(truncate)`.execute(db);
      } else {
        // vacuum too, as autovacuum would have on a live table (the visibility map lets index-only scans skip the heap)
        await sql`vacuum analyze tasks, task_assignees, task_comments, projects`.execute(db);
        // The load's gigabytes of write-ahead log set off one checkpoint after another, and the last
        // one, spread over minutes, would still be writing while the requests are timed: finish it
        // now (a live database's checkpoints are spread over a steady trickle of writes). Needs a
        // superuser or pg_checkpoint; without, the run goes on.
        await sql`checkpoint`.execute(db).catch(() => undefined);
      }
    });
  } finally {
    await restore();
  }

  const acmeTasks = Number(
    (
      await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', plan.acmeId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const tasks = Number(
    (
      await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { acmeProjects, acmeTasks, tasks, timings };
}
