/**
 * The demo projects' work: tasks with subtasks, assignees, comments, controls with points of focus and
 * their linked tasks, built from seed-catalogue.ts. Deterministic: one PRNG per project, seeded by its
 * title, so the same titles, IDs and statuses come out on every run (dates are relative to the seed).
 * Rows go in multi-row inserts: the seed runs for every api test file.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { CLOSED_TASK_STATUSES, type ProjectStatus, type TaskStatus } from '@portal/shared/core/projects';
import { CATALOGUES, COMMENTS, type CatalogueName } from './seed-catalogue';
import type {
  ControlTasksTable,
  ControlsTable,
  Database,
  PointsOfFocusTable,
  TaskAssigneesTable,
  TaskCommentsTable,
  TasksTable,
} from './schema';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** mulberry32: small, fast and good enough for demo data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a: a project's title gives its PRNG seed, so adding a project leaves the others' data as it was. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface ProjectWorkPlan {
  projectId: string;
  companyId: string;
  title: string;
  status: ProjectStatus;
  catalogue: CatalogueName;
  /** Top-level tasks; subtasks come on top. */
  tasks: number;
  /** Share of top-level tasks that have subtasks. */
  subtaskShare: number;
  startMs: number;
  dueMs: number;
  createdBy: string | null;
  /** Who does the work: staff on the roster and the company's active client members. */
  staff: string[];
  clients: string[];
}

export interface ProjectWorkRows {
  tasks: Insertable<TasksTable>[];
  assignees: Insertable<TaskAssigneesTable>[];
  comments: Insertable<TaskCommentsTable>[];
  controls: Insertable<ControlsTable>[];
  pointsOfFocus: Insertable<PointsOfFocusTable>[];
  controlTasks: Insertable<ControlTasksTable>[];
}

/** Where the work stands, by the project's status: pending work has not started, completed work is closed. */
const STATUS_WEIGHTS: Record<ProjectStatus, [TaskStatus, number][]> = {
  pending: [['OPEN', 1]],
  active: [
    ['OPEN', 22],
    ['IN_PROGRESS', 20],
    ['INCOMPLETE', 6],
    ['IN_REVIEW', 12],
    ['COMPLETED', 34],
    ['NOT_APPLICABLE', 6],
  ],
  on_hold: [
    ['OPEN', 40],
    ['IN_PROGRESS', 20],
    ['INCOMPLETE', 8],
    ['IN_REVIEW', 5],
    ['COMPLETED', 22],
    ['NOT_APPLICABLE', 5],
  ],
  completed: [
    ['COMPLETED', 92],
    ['NOT_APPLICABLE', 8],
  ],
  // canceled projects have no tasks (the rules forbid canceling a project with tasks)
  canceled: [],
};

export function planProjectWork(plan: ProjectWorkPlan, now: number): ProjectWorkRows {
  const rows: ProjectWorkRows = {
    tasks: [],
    assignees: [],
    comments: [],
    controls: [],
    pointsOfFocus: [],
    controlTasks: [],
  };
  if (plan.status === 'canceled' || plan.tasks === 0 || !(plan.staff.length + plan.clients.length)) return rows;
  const random = prng(hashText(plan.title));
  const between = (from: number, to: number) => from + random() * Math.max(0, to - from);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const weighted = (weights: [TaskStatus, number][]): TaskStatus => {
    let r = random() * weights.reduce((sum, [, w]) => sum + w, 0);
    for (const [status, w] of weights) if ((r -= w) < 0) return status;
    return weights[weights.length - 1][0];
  };
  const catalogue = CATALOGUES[plan.catalogue];
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);

  // Titles: each section's work items times the verbs, shuffled, then one section after another in
  // turn, so the tasks spread evenly over the sections.
  const pools = catalogue.sections.map((section) => {
    const titles = section.work.flatMap((work) => catalogue.verbs.map((verb) => (verb ? `${verb}${work}` : work)));
    for (let i = titles.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [titles[i], titles[j]] = [titles[j], titles[i]];
    }
    return titles;
  });
  const picked: { section: number; title: string }[] = [];
  for (let round = 0; picked.length < plan.tasks && pools.some((p) => p.length > round); round++) {
    for (let section = 0; section < pools.length && picked.length < plan.tasks; section++) {
      if (pools[section].length > round) picked.push({ section, title: pools[section][round] });
    }
  }
  picked.sort((a, b) => a.section - b.section);

  // Pending work was imported from the tracker in the last days; other projects' work over their first weeks.
  const createdFrom = plan.status === 'pending' ? now - 5 * DAY : plan.startMs;
  const createdSpan =
    plan.status === 'pending'
      ? 4 * DAY
      : Math.min(21 * DAY, Math.max(HOUR, Math.min(now, plan.dueMs) - plan.startMs) / 2);
  const dueFloor = plan.startMs + 7 * DAY;

  const everyone = [...plan.staff, ...plan.clients];
  // staff when the roster has no client yet, and the other way round
  const someone = (preferClient: boolean) =>
    pick((preferClient && plan.clients.length) || !plan.staff.length ? plan.clients : plan.staff);
  /** Mostly client members (they own the evidence); a subtask often goes to its parent's assignee. */
  const assign = (taskId: string, chances: { none: number; second: number }, likely?: string) => {
    if (random() < chances.none) return [];
    const first = likely && random() < 0.5 ? likely : someone(random() < 0.65);
    const people = [first];
    if (random() < chances.second) {
      const second = pick(everyone);
      if (second !== first) people.push(second);
    }
    for (const userId of people) rows.assignees.push({ task_id: taskId, user_id: userId });
    return people;
  };
  // A closed task closed at its last change (closed_at); a completed one completed then too.
  const times = (status: TaskStatus, created: number, due: number | null) => {
    if (status === 'COMPLETED') {
      const completed = Math.min(
        now - HOUR,
        Math.max(created + HOUR, between(created + DAY, Math.min(now, (due ?? now) + 3 * DAY))),
      );
      return { completedAt: completed, closedAt: completed, updatedAt: completed };
    }
    const updatedAt = status === 'OPEN' ? created : between(created, now - HOUR);
    return { completedAt: null, closedAt: CLOSED_TASK_STATUSES.includes(status) ? updatedAt : null, updatedAt };
  };

  const sectionCounts = new Map<number, number>();
  const controlIds = new Map<number, string>();
  const subtasks: Insertable<TasksTable>[] = [];
  picked.forEach(({ section, title }, index) => {
    const number = (sectionCounts.get(section) ?? 0) + 1;
    sectionCounts.set(section, number);
    const { name, title: sectionTitle } = catalogue.sections[section];
    const referenceId = `${name}-${String(number).padStart(2, '0')}`;
    const id = randomUUID();
    const created = Math.min(now - 2 * HOUR, createdFrom + (index / plan.tasks) * createdSpan + random() * HOUR);
    const status = weighted(STATUS_WEIGHTS[plan.status]);
    const closed = CLOSED_TASK_STATUSES.includes(status);
    let due: number | null = null;
    if (random() >= 0.08) {
      if (plan.status === 'pending' || plan.status === 'completed') due = between(dueFloor, plan.dueMs);
      else if (closed) due = between(dueFloor, Math.min(plan.dueMs, now + 14 * DAY));
      // some of the open work is late: the dashboard's overdue chart has something to show
      else if (random() < 0.3 && today - DAY > dueFloor) due = between(dueFloor, today - DAY);
      else due = between(today, Math.max(plan.dueMs, today + 30 * DAY));
      due = Math.max(due, created);
    }
    const { completedAt, closedAt, updatedAt } = times(status, created, due);
    rows.tasks.push({
      id,
      project_id: plan.projectId,
      company_id: plan.companyId,
      parent_id: null,
      reference_id: referenceId,
      title,
      description: catalogue.controls ? `${name}: ${sectionTitle}` : `${sectionTitle}.`,
      status,
      due_date: due === null ? null : dayOf(due),
      created_by: plan.createdBy,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updatedAt).toISOString(),
      completed_at: completedAt === null ? null : new Date(completedAt).toISOString(),
      closed_at: closedAt === null ? null : new Date(closedAt).toISOString(),
    });
    const people = assign(id, plan.status === 'pending' ? { none: 0.5, second: 0.1 } : { none: 0.1, second: 0.2 });

    if (catalogue.controls) {
      let controlId = controlIds.get(section);
      if (!controlId) {
        controlId = randomUUID();
        controlIds.set(section, controlId);
      }
      rows.controlTasks.push({ control_id: controlId, task_id: id });
    }

    if (random() < plan.subtaskShare) {
      const count = 1 + Math.floor(random() * 3);
      const first = Math.floor(random() * Math.max(1, catalogue.steps.length - count + 1));
      for (let step = 0; step < count && first + step < catalogue.steps.length; step++) {
        const subId = randomUUID();
        const subStatus: TaskStatus =
          plan.status === 'pending' || status === 'OPEN'
            ? 'OPEN'
            : status === 'NOT_APPLICABLE'
              ? 'NOT_APPLICABLE'
              : status === 'COMPLETED'
                ? 'COMPLETED'
                : weighted([
                    ['OPEN', 3],
                    ['IN_PROGRESS', 3],
                    ['COMPLETED', 4],
                  ]);
        const subCreated = created + (step + 1) * 60_000;
        const subDue = due === null ? null : Math.max(subCreated, due - (count - step - 1) * 2 * DAY);
        const subTimes = times(subStatus, subCreated, subDue);
        subtasks.push({
          id: subId,
          project_id: plan.projectId,
          company_id: plan.companyId,
          parent_id: id,
          reference_id: `${referenceId}.${step + 1}`,
          title: catalogue.steps[first + step],
          description: null,
          status: subStatus,
          due_date: subDue === null ? null : dayOf(subDue),
          created_by: plan.createdBy,
          created_at: new Date(subCreated).toISOString(),
          updated_at: new Date(subTimes.updatedAt).toISOString(),
          completed_at: subTimes.completedAt === null ? null : new Date(subTimes.completedAt).toISOString(),
          closed_at: subTimes.closedAt === null ? null : new Date(subTimes.closedAt).toISOString(),
        });
        assign(subId, { none: 0.3, second: 0 }, people[0]);
      }
    }

    if (status !== 'OPEN' && random() < 0.18) {
      const bodies = closed
        ? COMMENTS.done
        : status === 'IN_REVIEW' || status === 'INCOMPLETE'
          ? COMMENTS.review
          : COMMENTS.working;
      const count = 1 + Math.floor(random() * 3);
      const until = completedAt ?? now - HOUR;
      for (let c = 0; c < count; c++) {
        rows.comments.push({
          id: randomUUID(),
          task_id: id,
          author_id: c % 2 === 0 && people.length ? pick(people) : someone(false),
          body: c === count - 1 ? pick(bodies) : pick(COMMENTS.working),
          created_at: new Date(created + ((c + 1) / (count + 1)) * (until - created)).toISOString(),
        });
      }
    } else if (status === 'OPEN' && plan.status !== 'pending' && random() < 0.05) {
      rows.comments.push({
        id: randomUUID(),
        task_id: id,
        author_id: someone(false),
        body: pick(COMMENTS.open),
        created_at: new Date(between(created, now - HOUR)).toISOString(),
      });
    }
  });
  // parents before their subtasks: the rows go in batches, in this order
  rows.tasks.push(...subtasks);

  const controlCreated = new Date(plan.startMs).toISOString();
  for (const [section, controlId] of [...controlIds].sort((a, b) => a[0] - b[0])) {
    const { name, title, pointsOfFocus, work } = catalogue.sections[section];
    rows.controls.push({
      id: controlId,
      project_id: plan.projectId,
      name,
      title,
      description: `Tested through: ${work.join('; ')}.`,
      created_at: controlCreated,
      updated_at: controlCreated,
    });
    for (const point of pointsOfFocus) {
      rows.pointsOfFocus.push({
        id: randomUUID(),
        control_id: controlId,
        project_id: plan.projectId,
        name: point,
        description: null,
        created_at: controlCreated,
        updated_at: controlCreated,
      });
    }
  }
  return rows;
}

/** Multi-row inserts of `size` rows: one statement per batch keeps the seed fast on both databases. */
export async function insertInBatches<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  size = 500,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}

export async function insertProjectWork(db: Kysely<Database>, all: ProjectWorkRows[]): Promise<void> {
  const merged = <K extends keyof ProjectWorkRows>(key: K) =>
    all.flatMap((rows) => rows[key] as unknown[]) as ProjectWorkRows[K];
  // top-level tasks of every project first, then the subtasks that point at them
  const tasks = merged('tasks');
  await insertInBatches(db, 'tasks', [...tasks.filter((t) => !t.parent_id), ...tasks.filter((t) => t.parent_id)]);
  await insertInBatches(db, 'task_assignees', merged('assignees'));
  await insertInBatches(db, 'task_comments', merged('comments'));
  await insertInBatches(db, 'controls', merged('controls'));
  await insertInBatches(db, 'points_of_focus', merged('pointsOfFocus'));
  await insertInBatches(db, 'control_tasks', merged('controlTasks'));
}
