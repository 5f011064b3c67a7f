/**
 * What the reports read besides tasks, loaded into Acme's bench projects (after bench/api/load.ts) with
 * set-based SQL, one INSERT … SELECT over a number series per table and project:
 *  - controls: one per 50 of the project's tasks (2,000 on 100,000 tasks), each linked to 0–20 of the
 *    project's tasks (10 on average), spread over the project's whole history;
 *  - points of focus: three per control;
 *  - files: one in twelve of the project's tasks has an evidence file (a `files` row in the project's
 *    root folder, no stored bytes: the reports only ask whether a task has one) attached in task_files;
 *  - requests: one per five tasks (20,000), created over the last year, in every status (30% open, 15%
 *    submitted, 10% returned, 35% accepted, 10% canceled), due 7–66 days after creation (so some active
 *    ones are overdue), a tenth without a project, a third naming a task and a quarter a control of
 *    their project, returned once or more on the returned ones and on some accepted and submitted ones;
 *    one client assignee on 70%, two on 20%, none on 10%.
 * Every figure comes from a hash of the row number, the same on both databases. The tasks are numbered
 * per project in creation order first (a scratch table), so links stay inside their project.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../api/src/db/database';
import type { Database } from '../../api/src/db/schema';

export interface ReportDataPlan {
  acmeId: string;
  /** Acme's bench projects (bench/api/load.ts made them, with their tasks). */
  projectIds: string[];
  /** Who created the requests and uploaded the files (a staff user). */
  staffId: string;
  /** Acme's client members: the requests' assignees. */
  assignees: string[];
  now: number;
}

export interface ReportDataResult {
  controls: number;
  pointsOfFocus: number;
  controlTasks: number;
  taskFiles: number;
  requests: number;
  /** Seconds per step. */
  timings: Record<string, number>;
}

const DAY = 86_400;
const CONTROL_EVERY = 50;
const CONTROL_MAX_TASKS = 20;
const POINTS_PER_CONTROL = 3;
const FILE_EVERY = 12;
const REQUEST_EVERY = 5;
const REQUEST_SPAN_DAYS = 365;

/** Scrambles n (a bijection on 32 bits), as bench/api/load.ts does: pseudo-random, the same on both databases (64-bit arithmetic). */
const hashOf = (n: RawBuilder<unknown>, multiplier = 2654435761) =>
  sql<number>`((cast(${n} as bigint) * ${sql.lit(multiplier)}) % 4294967296)`;

/**
 * Odd multipliers whose ratio to 2^32 is far from simple fractions (Knuth's golden ratio, the fractional
 * parts of square roots of primes as SHA-256 has them, two of xxHash's): one per figure drawn from the
 * same row, so a row's figures do not follow each other (checked pairwise on 40,000 rows).
 */
const MULTIPLIERS = [
  2654435761, 1779033703, 3144134277, 2773480763, 1359893119, 2600822925, 528734635, 1541459225, 3266489917, 2246822519,
] as const;

/**
 * A pseudo-random 0 … below-1 for row `n`, figure `figure`: the hash scaled down (hash * below / 2^32),
 * which reads its upper bits, the well-mixed ones of a multiplicative hash; consecutive rows spread evenly.
 */
const draw = (n: RawBuilder<unknown>, figure: number, below: number) =>
  sql<number>`(${hashOf(n, MULTIPLIERS[figure])} * ${sql.lit(below)} / 4294967296)`;

/** 0 … count-1 as column `n` of `series`. */
function series(dialect: Dialect, count: number): RawBuilder<unknown> {
  return dialect === 'sqlite'
    ? sql`(with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${sql.lit(count - 1)}) select n from seq) as series`
    : sql`generate_series(cast(0 as bigint), ${sql.lit(count - 1)}) as series(n)`;
}

/**
 * A UUID-shaped id: 8 scrambled hex digits, then n; `tag` (4 hex digits) tells the table and project
 * apart, so ids never collide (tasks use 8000, comments 9000).
 */
function benchId(dialect: Dialect, tag: string, n: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`printf(${`%08x-0000-4000-${tag}-%012x`}, ${hashOf(n)}, ${n})`
    : sql<string>`lpad(to_hex(${hashOf(n)}), 8, '0') || ${`-0000-4000-${tag}-`} || lpad(to_hex(${n}), 12, '0')`;
}

/** The instant `seconds` (since the epoch) as a timestamp column stores it. */
function instant(dialect: Dialect, seconds: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`
    : sql<string>`to_timestamp(${seconds})`;
}

/** The UTC day (YYYY-MM-DD) of the instant `seconds`. */
function dayOf(dialect: Dialect, seconds: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`strftime('%Y-%m-%d', ${seconds}, 'unixepoch')`
    : sql<string>`to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD')`;
}

const smaller = (dialect: Dialect, a: RawBuilder<unknown>, b: RawBuilder<unknown>) =>
  dialect === 'sqlite' ? sql`min(${a}, ${b})` : sql`least(${a}, ${b})`;

async function timed<T>(timings: Record<string, number>, step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings[step] = (performance.now() - started) / 1000;
  return result;
}

const tag = (table: number, project: number) => `a${table.toString(16)}${project.toString(16).padStart(2, '0')}`;
const CONTROL_TAG = 1;
const POINT_TAG = 2;
const FOLDER_TAG = 3;
const FILE_TAG = 4;
const REQUEST_TAG = 5;

/** One project's share, given its task count. */
interface ProjectPlan {
  index: number;
  id: string;
  tasks: number;
  controls: number;
  requests: number;
}

export async function loadReportData(
  db: Kysely<Database>,
  dialect: Dialect,
  plan: ReportDataPlan,
): Promise<ReportDataResult> {
  const timings: Record<string, number> = {};
  const nowSec = Math.floor(plan.now / 1000);
  const nowIso = new Date(plan.now).toISOString();

  const projects: ProjectPlan[] = await timed(timings, 'number the tasks', async () => {
    // the links below pick tasks by their number within the project: (project, m) -> task
    await sql`create table bench_report_tasks (project_id text not null, m bigint not null, task_id text not null, created_at text not null, primary key (project_id, m))`.execute(
      db,
    );
    const createdText =
      dialect === 'sqlite'
        ? sql`created_at`
        : sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await sql`insert into bench_report_tasks (project_id, m, task_id, created_at)
      select project_id, row_number() over (partition by project_id order by created_at, id) - 1, id, ${createdText}
      from tasks where project_id in (${sql.join(plan.projectIds)})`.execute(db);
    await sql`create table bench_report_people (i integer primary key, user_id text not null)`.execute(db);
    await db
      .insertInto('bench_report_people' as never)
      .values(plan.assignees.map((user_id, i) => ({ i, user_id })) as never)
      .execute();
    const { rows } = await sql<{
      project_id: string;
      tasks: number | string;
    }>`select project_id, count(*) as tasks from bench_report_tasks group by project_id`.execute(db);
    return plan.projectIds.map((id, index) => {
      const tasks = Number(rows.find((r) => r.project_id === id)?.tasks ?? 0);
      return {
        index,
        id,
        tasks,
        controls: Math.floor(tasks / CONTROL_EVERY),
        requests: Math.floor(tasks / REQUEST_EVERY),
      };
    });
  });

  const n = sql`n`;
  const people = plan.assignees.length;
  await timed(timings, 'controls and points of focus', async () => {
    for (const p of projects.filter((p) => p.controls > 0)) {
      await sql`insert into controls (id, project_id, name, title, description, created_at, updated_at)
        select ${benchId(dialect, tag(CONTROL_TAG, p.index), n)}, ${p.id}, 'BC-' || cast(n + 1 as text), 'Bench control ' || cast(n + 1 as text), null, ${nowIso}, ${nowIso}
        from ${series(dialect, p.controls)}`.execute(db);
      // point k of control c is row c * 3 + k
      const control = sql`(n / ${sql.lit(POINTS_PER_CONTROL)})`;
      await sql`insert into points_of_focus (id, control_id, project_id, name, description, created_at, updated_at)
        select ${benchId(dialect, tag(POINT_TAG, p.index), n)}, ${benchId(dialect, tag(CONTROL_TAG, p.index), control)}, ${p.id},
          'Point of focus ' || cast(n % ${sql.lit(POINTS_PER_CONTROL)} + 1 as text), null, ${nowIso}, ${nowIso}
        from ${series(dialect, p.controls * POINTS_PER_CONTROL)}`.execute(db);
      // link j of control c is row c * 20 + j, kept when j < draw(c) (0–20): tasks c, c + controls, c + 2 * controls, …
      const c = sql`(n / ${sql.lit(CONTROL_MAX_TASKS)})`;
      const j = sql`(n % ${sql.lit(CONTROL_MAX_TASKS)})`;
      await sql`insert into control_tasks (control_id, task_id)
        select ${benchId(dialect, tag(CONTROL_TAG, p.index), c)}, t.task_id
        from ${series(dialect, p.controls * CONTROL_MAX_TASKS)}
        join bench_report_tasks t on t.project_id = ${p.id} and t.m = ${c} + ${j} * ${sql.lit(p.controls)}
        where ${j} < ${draw(c, 0, CONTROL_MAX_TASKS + 1)}`.execute(db);
    }
  });

  await timed(timings, 'files', async () => {
    for (const p of projects) {
      const folderId = benchId(dialect, tag(FOLDER_TAG, p.index), sql.lit(0));
      await sql`insert into folders (id, project_id, parent_id, name, created_by, created_at)
        select ${folderId}, ${p.id}, null, 'Files', ${plan.staffId}, ${nowIso}
        where not exists (select 1 from folders where project_id = ${p.id} and parent_id is null)`.execute(db);
      const m = sql`t.m`;
      const chosen = sql`t.project_id = ${p.id} and ${draw(m, 0, FILE_EVERY)} = 0`;
      // uploaded a day after its task was created (sqlite stores the task's ISO text; postgres parses it)
      const uploaded =
        dialect === 'sqlite'
          ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', t.created_at, '+1 day')`
          : sql`cast(t.created_at as timestamptz) + interval '1 day'`;
      await sql`insert into files (id, project_id, name, content_type, size, uploaded_by, created_at, folder_id, company_id, current_version_id, updated_at)
        select ${benchId(dialect, tag(FILE_TAG, p.index), m)}, ${p.id}, 'evidence-' || cast(t.m as text) || '.pdf', 'application/pdf',
          20480 + ${draw(m, 1, 1024)} * 1024, ${plan.staffId}, ${uploaded},
          (select f.id from folders f where f.project_id = ${p.id} and f.parent_id is null), ${plan.acmeId}, null, ${uploaded}
        from bench_report_tasks t where ${chosen}`.execute(db);
      await sql`insert into task_files (task_id, file_id, created_by, created_at)
        select t.task_id, ${benchId(dialect, tag(FILE_TAG, p.index), m)}, ${plan.staffId}, ${uploaded}
        from bench_report_tasks t where ${chosen}`.execute(db);
    }
  });

  await timed(timings, 'requests', async () => {
    for (const p of projects.filter((p) => p.requests > 0)) {
      // spread evenly over the last year, the newest an hour ago
      const createdSec = sql`(${sql.lit(nowSec - REQUEST_SPAN_DAYS * DAY)} + n * ${sql.lit(Math.floor((REQUEST_SPAN_DAYS * DAY - 3600) / p.requests))})`;
      const latest = sql.lit(nowSec - 60);
      // reviewed 0–45 days after creation (every time-to-accept bucket), submitted halfway; never in the future
      const delay = sql`(${draw(n, 1, 45)} * ${sql.lit(DAY)} + ${draw(n, 2, 1440)} * 60)`;
      const reviewedSec = smaller(dialect, sql`${createdSec} + ${delay}`, latest);
      const submittedSec = smaller(dialect, sql`${createdSec} + ${delay} / 2`, latest);
      // 30% open, 15% submitted, 10% returned, 35% accepted, 10% canceled
      const b = draw(n, 0, 20);
      const status = sql`case when ${b} < 6 then 'open' when ${b} < 9 then 'submitted' when ${b} < 11 then 'returned' when ${b} < 18 then 'accepted' else 'canceled' end`;
      // returned: 1–3 times; a fifth of the accepted and a quarter of the submitted ones went back once or twice first
      const r = draw(n, 3, 60);
      const returns = sql`case when ${b} between 9 and 10 then 1 + ${r} % 3 when ${b} between 11 and 17 and ${r} < 12 then 1 + ${r} % 2
        when ${b} between 6 and 8 and ${r} < 15 then 1 else 0 end`;
      const withProject = sql`(n % 10 <> 9)`;
      const task = sql`(select t.task_id from bench_report_tasks t where t.project_id = ${p.id} and t.m = ${draw(n, 4, p.tasks)})`;
      const control = benchId(dialect, tag(CONTROL_TAG, p.index), draw(n, 5, Math.max(p.controls, 1)));
      await sql`insert into requests (id, company_id, project_id, task_id, control_id, reference, number, title, description, internal_note, priority, due_date,
          status, return_reason, return_count, requester_id, created_by, created_at, updated_at, submitted_at, accepted_at, canceled_at)
        select ${benchId(dialect, tag(REQUEST_TAG, p.index), n)}, ${plan.acmeId},
          case when ${withProject} then ${p.id} end,
          case when ${withProject} and n % 3 = 0 then ${task} end,
          case when ${withProject} and ${sql.lit(p.controls)} > 0 and n % 4 = 1 then ${control} end,
          ${`BR-${p.index + 1}-`} || cast(n + 1 as text), null,
          'Bench evidence request ' || cast(n + 1 as text), null, null,
          case ${draw(n, 6, 4)} when 0 then 'low' when 1 then 'medium' when 2 then 'high' else 'critical' end,
          ${dayOf(dialect, sql`${createdSec} + (7 + ${draw(n, 7, 60)}) * ${sql.lit(DAY)}`)},
          ${status},
          case when ${b} between 9 and 10 then 'Please add the full sample.' end,
          ${returns}, ${plan.staffId}, ${plan.staffId},
          ${instant(dialect, createdSec)},
          ${instant(dialect, sql`case when ${b} < 6 then ${createdSec} when ${b} < 9 then ${submittedSec} when ${b} < 18 then ${reviewedSec} else ${submittedSec} end`)},
          case when ${b} between 6 and 17 then ${instant(dialect, submittedSec)} end,
          case when ${b} between 11 and 17 then ${instant(dialect, reviewedSec)} end,
          case when ${b} >= 18 then ${instant(dialect, submittedSec)} end
        from ${series(dialect, p.requests)}`.execute(db);
      if (people === 0) continue;
      // the assignees: none on a tenth, a second one on a fifth
      const share = draw(n, 8, 10);
      const person = (offset: number) => sql`((${draw(n, 9, people)} + ${sql.lit(offset)}) % ${sql.lit(people)})`;
      await sql`insert into request_assignees (request_id, user_id)
        select ${benchId(dialect, tag(REQUEST_TAG, p.index), n)}, u.user_id from ${series(dialect, p.requests)}
        join bench_report_people u on u.i = ${person(0)} where ${share} > 0`.execute(db);
      if (people > 1) {
        await sql`insert into request_assignees (request_id, user_id)
          select ${benchId(dialect, tag(REQUEST_TAG, p.index), n)}, u.user_id from ${series(dialect, p.requests)}
          join bench_report_people u on u.i = ${person(1)} where ${share} >= 8`.execute(db);
      }
    }
  });

  await timed(timings, 'analyze', async () => {
    await sql`drop table bench_report_tasks`.execute(db);
    await sql`drop table bench_report_people`.execute(db);
    const tables = [
      'controls',
      'control_tasks',
      'points_of_focus',
      'folders',
      'files',
      'task_files',
      'requests',
      'request_assignees',
    ];
    if (dialect === 'sqlite') {
      for (const table of tables) await sql`analyze ${sql.id(table)}`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    } else {
      await sql.raw(`vacuum analyze ${tables.join(', ')}`).execute(db);
    }
  });

  return { ...(await countsOf(db, plan)), timings };
}

/** What Acme now holds, counted back from the tables (the figures the benchmark prints). */
async function countsOf(db: Kysely<Database>, plan: ReportDataPlan): Promise<Omit<ReportDataResult, 'timings'>> {
  const counted = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
    Number((await query.executeTakeFirstOrThrow()).n);
  const inProjects = plan.projectIds;
  return {
    controls: await counted(
      db
        .selectFrom('controls')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', 'in', inProjects),
    ),
    pointsOfFocus: await counted(
      db
        .selectFrom('points_of_focus')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', 'in', inProjects),
    ),
    controlTasks: await counted(
      db
        .selectFrom('control_tasks')
        .innerJoin('controls', 'controls.id', 'control_tasks.control_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('controls.project_id', 'in', inProjects),
    ),
    taskFiles: await counted(
      db
        .selectFrom('task_files')
        .innerJoin('files', 'files.id', 'task_files.file_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('files.project_id', 'in', inProjects),
    ),
    requests: await counted(
      db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', plan.acmeId)
        .where('reference', 'like', 'BR-%'),
    ),
  };
}
