/**
 * Projects: lists and counts (issue 5; the routes are routes/api/v1/projects.ts): which projects a
 * viewer sees, projects by id with their practice, leads, task counts and the viewer's role, a
 * filtered and sorted page of them, and the dashboard's summary; also today's date as due dates
 * compare against it.
 */
import { sql, type Kysely } from 'kysely';
import {
  CLOSED_TASK_STATUSES,
  PROJECT_STATUSES,
  TASK_STATUSES,
  dueWeekRange,
  type Project,
  type ProjectsQuery,
  type ProjectsSummary,
  type ProjectStatus,
  type ProjectType,
  type ProjectUserRef,
  type TaskStatus,
} from '@portal/shared/core/projects';
import type { Database, ProjectRoleName } from '../schema';
import { likePattern, toCount, toIso } from '../values';
import { LEAD_ROLES } from './roles';

/** Who is looking: auditors see only the projects where they hold a role. */
export interface ProjectViewer {
  id: string;
  isTevora: boolean;
  isAuditor: boolean;
}

/** Today as a date-only value in UTC: date-only due dates compare as text against it. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const closedStatuses = sql.join(CLOSED_TASK_STATUSES.map((s) => sql`${s}`));
/** Open (not done) work, as a condition on the tasks row `t`. */
const isOpen = sql<boolean>`t.status not in (${closedStatuses})`;

/** The company's projects the viewer may see, as a query on `p`. */
function visibleProjects(db: Kysely<Database>, companyId: string, viewer: ProjectViewer) {
  let query = db.selectFrom('projects as p').where('p.company_id', '=', companyId);
  if (viewer.isAuditor) {
    query = query.where(
      'p.id',
      'in',
      db.selectFrom('project_members').select('project_id').where('user_id', '=', viewer.id),
    );
  }
  return query;
}

/** A project as the api shows it, but for what the caller may do (the route adds that). */
export type ProjectRecord = Omit<Project, 'permissions'>;

/**
 * The projects of `ids`, in that order, with their practice, leads, task counts and the viewer's role.
 * Counts come from one grouped query over these projects' tasks only.
 */
export async function projectsByIds(
  db: Kysely<Database>,
  ids: string[],
  viewerId: string,
  today = todayUtc(),
): Promise<ProjectRecord[]> {
  if (ids.length === 0) return [];
  const [rows, counts, people] = await Promise.all([
    db
      .selectFrom('projects as p')
      .leftJoin('practices as pr', 'pr.id', 'p.practice_id')
      .select([
        'p.id',
        'p.company_id',
        'p.title',
        'p.description',
        'p.type',
        'p.status',
        'p.start_date',
        'p.due_date',
        'p.created_at',
        'p.updated_at',
        'pr.id as practice_id',
        'pr.name as practice_name',
      ])
      .where('p.id', 'in', ids)
      .execute(),
    db
      .selectFrom('tasks as t')
      .select([
        't.project_id',
        sql<number | string>`count(*)`.as('total'),
        sql<number | string>`sum(case when ${isOpen} then 0 else 1 end)`.as('done'),
        sql<number | string>`sum(case when ${isOpen} and t.due_date < ${today} then 1 else 0 end)`.as('overdue'),
      ])
      .where('t.project_id', 'in', ids)
      .groupBy('t.project_id')
      .execute(),
    db
      .selectFrom('project_members as pm')
      .innerJoin('users as u', 'u.id', 'pm.user_id')
      .select(['pm.project_id', 'pm.user_id', 'pm.role', 'u.first_name', 'u.last_name', 'u.email'])
      .where('pm.project_id', 'in', ids)
      .where((eb) => eb.or([eb('pm.role', 'in', LEAD_ROLES), eb('pm.user_id', '=', viewerId)]))
      .execute(),
  ]);
  const countsOf = new Map(counts.map((c) => [c.project_id, c]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id): ProjectRecord[] => {
    const r = byId.get(id);
    if (!r) return [];
    const c = countsOf.get(id);
    const mine = people.filter((p) => p.project_id === id);
    const holder = (role: ProjectRoleName): ProjectUserRef | null => {
      const p = mine.find((m) => m.role === role);
      return p ? { id: p.user_id, firstName: p.first_name, lastName: p.last_name, email: p.email } : null;
    };
    return [
      {
        id: r.id,
        companyId: r.company_id,
        title: r.title,
        description: r.description,
        type: r.type as ProjectType,
        status: r.status as ProjectStatus,
        practice: r.practice_id && r.practice_name !== null ? { id: r.practice_id, name: r.practice_name } : null,
        startDate: r.start_date,
        dueDate: r.due_date,
        createdAt: toIso(r.created_at),
        updatedAt: toIso(r.updated_at),
        tasksTotal: toCount(c?.total),
        tasksDone: toCount(c?.done),
        tasksOverdue: toCount(c?.overdue),
        leadConsultant: holder('Lead Consultant'),
        clientLead: holder('Client Lead'),
        myRole: mine.find((m) => m.user_id === viewerId)?.role ?? null,
      },
    ];
  });
}

export interface ProjectListQuery {
  status?: ProjectStatus[];
  practiceId?: string;
  search?: string;
  sort: NonNullable<ProjectsQuery['sort']>;
  limit: number;
  offset: number;
}

/** Lifecycle order for the status sort. */
const statusOrder = sql`case p.status ${sql.join(
  PROJECT_STATUSES.map((s, i) => sql`when ${s} then ${sql.lit(i)}`),
  sql` `,
)} else ${sql.lit(PROJECT_STATUSES.length)} end`;

/** A page of the company's projects the viewer sees, filtered and sorted in SQL. */
export async function listProjects(
  db: Kysely<Database>,
  companyId: string,
  viewer: ProjectViewer,
  query: ProjectListQuery,
  today = todayUtc(),
): Promise<{ results: ProjectRecord[]; total: number }> {
  let base = visibleProjects(db, companyId, viewer);
  if (query.status?.length) base = base.where('p.status', 'in', query.status);
  if (query.practiceId) base = base.where('p.practice_id', '=', query.practiceId);
  if (query.search) base = base.where(sql<boolean>`lower(p.title) like ${likePattern(query.search)} escape '!'`);
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();

  const direction = query.sort.startsWith('-') ? 'desc' : 'asc';
  const key = query.sort.replace(/^-/, '');
  let page = base.select('p.id');
  if (key === 'progress') {
    // Progress needs every filtered project's counts: one grouped pass over the company's tasks.
    page = base
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('tasks as t')
            .select([
              't.project_id',
              sql<number>`count(*)`.as('total'),
              sql<number>`sum(case when ${isOpen} then 0 else 1 end)`.as('done'),
            ])
            .where('t.company_id', '=', companyId)
            .groupBy('t.project_id')
            .as('tc'),
        (join) => join.onRef('tc.project_id', '=', 'p.id'),
      )
      .select('p.id')
      .orderBy(sql`case when tc.total is null or tc.total = 0 then 0 else 1.0 * tc.done / tc.total end`, direction);
  } else if (key === 'status') {
    page = page.orderBy(statusOrder, direction);
  } else if (key === 'dueDate') {
    // Without a due date: last, whichever the direction (the dialects disagree on where nulls go).
    page = page.orderBy(sql`case when p.due_date is null then 1 else 0 end`).orderBy('p.due_date', direction);
  } else if (key === 'createdAt') {
    page = page.orderBy('p.created_at', direction);
  }
  page = page.orderBy(sql`lower(p.title)`, key === 'title' ? direction : 'asc').orderBy('p.id');
  const rows = await page.limit(query.limit).offset(query.offset).execute();
  return {
    results: await projectsByIds(
      db,
      rows.map((r) => r.id),
      viewer.id,
      today,
    ),
    total: toCount(totalRow.n as string | number),
  };
}

/** The dashboard's charts over the company's projects the viewer sees, aggregated in the database. */
export async function projectsSummary(
  db: Kysely<Database>,
  companyId: string,
  viewer: ProjectViewer,
  today = todayUtc(),
): Promise<Omit<ProjectsSummary, 'canCreate'>> {
  const visibleIds = visibleProjects(db, companyId, viewer).select('p.id');
  let tasks = db.selectFrom('tasks as t').where('t.company_id', '=', companyId);
  if (viewer.isAuditor) tasks = tasks.where('t.project_id', 'in', visibleIds);
  const overdue = sql<boolean>`${isOpen} and t.due_date < ${today}`;
  const week = dueWeekRange(today);

  const [byStatus, taskRows, overdueRows, practices] = await Promise.all([
    visibleProjects(db, companyId, viewer)
      .select(['p.status', sql<number | string>`count(*)`.as('n')])
      .groupBy('p.status')
      .execute(),
    tasks
      .select([
        't.status',
        sql<number | string>`count(*)`.as('n'),
        sql<number | string>`sum(case when ${overdue} then 1 else 0 end)`.as('overdue'),
        sql<
          number | string
        >`sum(case when ${isOpen} and t.due_date >= ${week.first} and t.due_date <= ${week.last} then 1 else 0 end)`.as(
          'due_soon',
        ),
      ])
      .groupBy('t.status')
      .execute(),
    tasks
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select(['t.project_id', 'p.title', sql<number | string>`count(*)`.as('n')])
      .where(overdue)
      .groupBy(['t.project_id', 'p.title'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy(sql`lower(p.title)`)
      .limit(10)
      .execute(),
    visibleProjects(db, companyId, viewer)
      .innerJoin('practices as pr', 'pr.id', 'p.practice_id')
      .select(['pr.id', 'pr.name'])
      .distinct()
      .orderBy('pr.name')
      .orderBy('pr.id')
      .execute(),
  ]);

  const projectsByStatus = Object.fromEntries(PROJECT_STATUSES.map((s) => [s, 0])) as Record<ProjectStatus, number>;
  for (const row of byStatus)
    if (row.status in projectsByStatus) projectsByStatus[row.status as ProjectStatus] = toCount(row.n);
  const tasksByStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  let overdueTotal = 0;
  let dueThisWeek = 0;
  for (const row of taskRows) {
    if (row.status in tasksByStatus) tasksByStatus[row.status as TaskStatus] = toCount(row.n);
    overdueTotal += toCount(row.overdue);
    dueThisWeek += toCount(row.due_soon);
  }
  return {
    projectsByStatus,
    tasksByStatus,
    overdueByProject: overdueRows.map((r) => ({ projectId: r.project_id, title: r.title, overdue: toCount(r.n) })),
    overdueTotal,
    dueThisWeek,
    practices,
  };
}
