import { createHash } from 'node:crypto';
import fs from 'node:fs';
import argon2 from 'argon2';
import {
  CLOSED_TASK_STATUSES,
  PROJECT_STATUSES,
  PROJECT_TYPES,
  TASK_STATUSES,
  type TaskStatus,
} from '@portal/shared/core/projects';
import {
  formatRequestReference,
  isRequestOverdue,
  REQUEST_ACTIVE_STATUSES,
  REQUEST_PRIORITIES,
  REQUEST_STATUSES,
  REQUEST_TRANSITIONS,
  type RequestEvent,
} from '@portal/shared/core/requests';
import { findPasswordPolicy } from './password-policies';
import { moduleAccessFor } from './module-access';
import { requestScopeFor, requestVisible } from './request-access';
import { migrateToLatest } from './migrate';
import { DEMO_PASSWORD, seedIfEmpty } from './seed';
import { findUserCredentialsByEmail } from './users';
import { FILE_PROJECTS } from './seed-files';
import { createStorage, type BlobStorage } from '../lib/storage';
import { createTestDatabase, makeTempDir, type TestDatabase } from '../test/app';

let database: TestDatabase;
let dataDir: string;
let storage: BlobStorage;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = makeTempDir('portal-seed-files-');
  storage = createStorage({ dataDir });
  await migrateToLatest(database.db, database.dialect);
  await seedIfEmpty(database.db, { storage });
});
afterAll(async () => {
  await database.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const db = () => database.db;
const idOf = async (email: string) => (await findUserCredentialsByEmail(db(), email))!.user.id;
const companyIdOf = async (name: string) =>
  (await db().selectFrom('companies').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describe('the demo seed', () => {
  it('hashes once (argon2 is the slow part): one hash serves every user with the demo password', async () => {
    const hashes = await db()
      .selectFrom('users')
      .select('password_hash')
      .where('password_hash', 'is not', null)
      .execute();
    expect(new Set(hashes.map((h) => h.password_hash)).size).toBe(1);
    expect(await argon2.verify(hashes[0].password_hash!, DEMO_PASSWORD)).toBe(true);
  });

  it('keeps the demo users, and their access, as they were', async () => {
    for (const email of [
      'admin@demo.test',
      'consultant@demo.test',
      'auditor@demo.test',
      'lead@acme.test',
      'member@acme.test',
      'client@globex.test',
      'both@acme.test',
    ]) {
      const found = await findUserCredentialsByEmail(db(), email);
      expect({ email, active: found?.user.status, firstLogin: found?.user.firstLogin }).toEqual({
        email,
        active: 'active',
        firstLogin: false,
      });
    }
    const acme = await companyIdOf('Acme Corp');
    const globex = await companyIdOf('Globex Inc');
    expect(await moduleAccessFor(db(), await idOf('member@acme.test'), acme)).toEqual({
      risks: true,
      projects: true,
      requests: true,
      reports: false,
      assets: true,
    });
    expect(await moduleAccessFor(db(), await idOf('lead@acme.test'), acme)).toEqual({
      risks: true,
      projects: true,
      requests: true,
      reports: true,
      assets: true,
    });
    expect(await moduleAccessFor(db(), await idOf('both@acme.test'), globex)).toEqual({
      risks: true,
      projects: true,
      requests: false,
      reports: true,
      assets: true,
    });
    const memberships = await db()
      .selectFrom('company_memberships')
      .innerJoin('users', 'users.id', 'company_memberships.user_id')
      .select('company_memberships.company_id')
      .where('users.email', '=', 'client@globex.test')
      .execute();
    expect(memberships).toEqual([{ company_id: globex }]);
  });

  it('gives the users list a suspended user, an invited one without a password and a revoked member', async () => {
    const mia = (await findUserCredentialsByEmail(db(), 'mia.rossi@acme.test'))!;
    expect(mia.user.status).toBe('suspended');
    const noah = (await findUserCredentialsByEmail(db(), 'noah.fischer@acme.test'))!;
    expect(noah.passwordHash).toBeNull();
    const revoked = await db()
      .selectFrom('company_memberships')
      .select('access_revoked_at')
      .where('user_id', '=', await idOf('chloe.martin@acme.test'))
      .executeTakeFirstOrThrow();
    expect(revoked.access_revoked_at).not.toBeNull();
  });

  it('gives each of Acme and Globex three teams with members, module values and projects', async () => {
    for (const company of ['Acme Corp', 'Globex Inc']) {
      const teams = await db()
        .selectFrom('teams')
        .select('id')
        .where('company_id', '=', await companyIdOf(company))
        .execute();
      expect(teams).toHaveLength(3);
      for (const { id } of teams) {
        expect(
          (await db().selectFrom('team_members').select('user_id').where('team_id', '=', id).execute()).length,
        ).toBeGreaterThan(0);
      }
    }
    const objects = await db()
      .selectFrom('team_objects')
      .innerJoin('projects', 'projects.id', 'team_objects.object_id')
      .select('projects.title')
      .execute();
    expect(objects.length).toBeGreaterThanOrEqual(4);
    expect((await db().selectFrom('team_modules_access').select('team_id').execute()).length).toBeGreaterThan(0);
  });

  it('assigns the two practices to staff, sets a password policy on Acme and shows an active help message', async () => {
    const practices = await db()
      .selectFrom('staff_practices')
      .innerJoin('practices', 'practices.id', 'staff_practices.practice_id')
      .innerJoin('users', 'users.id', 'staff_practices.user_id')
      .select(['users.email', 'practices.name'])
      .where('users.email', 'in', ['consultant@demo.test', 'admin@demo.test'])
      .orderBy('users.email')
      .orderBy('practices.name')
      .execute();
    expect(practices).toEqual([
      { email: 'admin@demo.test', name: 'SOC 2 Readiness' },
      { email: 'consultant@demo.test', name: 'PCI DSS Assessment' },
      { email: 'consultant@demo.test', name: 'SOC 2 Readiness' },
    ]);
    // rotation off: demo passwords never expire, however old the database
    expect(await findPasswordPolicy(db(), await companyIdOf('Acme Corp'))).toEqual({
      minimumLength: 14,
      rotationInDays: 0,
    });
    expect(DEMO_PASSWORD.length).toBeGreaterThanOrEqual(14);
    const help = await db().selectFrom('portal_messages').select(['status']).where('key', '=', 'help').execute();
    expect(help).toEqual([{ status: 'active' }]);
  });

  it('gives each practice a published template (tasks with subtasks, controls with points of focus) and a draft', async () => {
    const trackers = await db()
      .selectFrom('task_trackers')
      .innerJoin('practices', 'practices.id', 'task_trackers.practice_id')
      .select(['task_trackers.id', 'task_trackers.status', 'practices.name as practice'])
      .orderBy('practices.name')
      .orderBy('task_trackers.status')
      .execute();
    expect(trackers.map((t) => [t.practice, t.status])).toEqual([
      ['PCI DSS Assessment', 'draft'],
      ['PCI DSS Assessment', 'published'],
      ['SOC 2 Readiness', 'draft'],
      ['SOC 2 Readiness', 'published'],
    ]);
    for (const tracker of trackers.filter((t) => t.status === 'published')) {
      const tasks = await db()
        .selectFrom('tracker_tasks')
        .select(['id', 'parent_id', 'reference_id'])
        .where('tracker_id', '=', tracker.id)
        .execute();
      const topLevel = tasks.filter((t) => t.parent_id === null);
      expect({ practice: tracker.practice, topLevel: topLevel.length >= 10 && topLevel.length <= 20 }).toEqual({
        practice: tracker.practice,
        topLevel: true,
      });
      for (const task of topLevel) expect(tasks.some((t) => t.parent_id === task.id)).toBe(true);
      const controls = await db()
        .selectFrom('tracker_controls')
        .select('id')
        .where('tracker_id', '=', tracker.id)
        .execute();
      expect(controls.length).toBe(topLevel.length);
      const points = await db()
        .selectFrom('tracker_points_of_focus')
        .select('control_id')
        .where('tracker_id', '=', tracker.id)
        .execute();
      for (const control of controls) expect(points.some((p) => p.control_id === control.id)).toBe(true);
      const links = await db()
        .selectFrom('tracker_control_tasks')
        .select('task_id')
        .where(
          'task_id',
          'in',
          tasks.map((t) => t.id),
        )
        .execute();
      expect(links.length).toBe(tasks.length);
    }
  });

  it('has an audit history of earlier changes', async () => {
    const rows = await db().selectFrom('audit_log').select(['created_at', 'actor_id']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      expect(row.actor_id).not.toBeNull();
      expect(
        Date.parse(String(row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at)),
      ).toBeLessThan(Date.now() - 24 * 3_600_000);
    }
  });
});

describe('the demo projects', () => {
  const projects = () =>
    db()
      .selectFrom('projects')
      .innerJoin('companies', 'companies.id', 'projects.company_id')
      .select([
        'projects.id',
        'projects.title',
        'projects.status',
        'projects.type',
        'projects.description',
        'projects.start_date',
        'projects.due_date',
        'projects.company_id',
        'companies.name as company',
      ])
      .execute();
  const projectIdOf = async (title: string) =>
    (await db().selectFrom('projects').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;
  const today = new Date().toISOString().slice(0, 10);
  const isClosed = (status: string) => CLOSED_TASK_STATUSES.includes(status as TaskStatus);

  it('keeps the demo project titles and roles: the demo users hold those roles and no others', async () => {
    const roles = await db()
      .selectFrom('project_members')
      .innerJoin('users', 'users.id', 'project_members.user_id')
      .innerJoin('projects', 'projects.id', 'project_members.project_id')
      .select(['users.email', 'projects.title', 'project_members.role'])
      .where('users.email', 'in', [
        'admin@demo.test',
        'auditor@demo.test',
        'lead@acme.test',
        'member@acme.test',
        'client@globex.test',
        'both@acme.test',
      ])
      .orderBy('users.email')
      .orderBy('projects.title')
      .execute();
    expect(roles).toEqual([
      { email: 'auditor@demo.test', title: 'Globex HIPAA Risk Assessment', role: 'Consultant' },
      { email: 'both@acme.test', title: 'Globex Penetration Test 2026', role: 'Project Manager' },
      { email: 'client@globex.test', title: 'Globex HIPAA Risk Assessment', role: 'Client Lead' },
      { email: 'lead@acme.test', title: 'Acme ISO 27001 Gap Analysis', role: 'Client Lead' },
      { email: 'lead@acme.test', title: 'Acme SOC 2 Type II 2026', role: 'Client Lead' },
      { email: 'member@acme.test', title: 'Acme PCI DSS Assessment', role: 'Project Manager' },
    ]);
    const consultant = await db()
      .selectFrom('project_members')
      .innerJoin('projects', 'projects.id', 'project_members.project_id')
      .select(['projects.title', 'project_members.role', 'projects.company_id'])
      .where('project_members.user_id', '=', await idOf('consultant@demo.test'))
      .execute();
    expect(consultant.map((r) => r.title)).toEqual(
      expect.arrayContaining(['Acme SOC 2 Type II 2026', 'Acme PCI DSS Assessment', 'Acme ISO 27001 Gap Analysis']),
    );
    const acme = await companyIdOf('Acme Corp');
    for (const row of consultant)
      expect({ ...row, company_id: row.company_id === acme }).toEqual({
        ...row,
        role: 'Lead Consultant',
        company_id: true,
      });
    const nina = await db()
      .selectFrom('project_members')
      .select('role')
      .where('project_id', '=', await projectIdOf('Acme PCI DSS Assessment'))
      .where('user_id', '=', await idOf('nina.patel@demo.test'))
      .execute();
    expect(nina).toEqual([{ role: 'Consultant' }]);
  });

  it('gives Acme Corp and Globex Inc several projects in every status, each with a type, a description and dates', async () => {
    const all = await projects();
    for (const company of ['Acme Corp', 'Globex Inc']) {
      const mine = all.filter((p) => p.company === company);
      const atLeastTwo = (status: string) => mine.filter((p) => p.status === status).length >= 2;
      expect({ company, statuses: PROJECT_STATUSES.filter(atLeastTwo) }).toEqual({
        company,
        statuses: [...PROJECT_STATUSES],
      });
    }
    for (const p of all) {
      expect(PROJECT_TYPES).toContain(p.type);
      expect(p.description?.length).toBeGreaterThan(20);
      expect(p.start_date).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(p.due_date).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(p.start_date! <= p.due_date!).toBe(true);
    }
    // relative to the seed date: pending work starts later, completed work ended earlier
    for (const p of all.filter((p) => p.status === 'pending')) expect(p.start_date! > today).toBe(true);
    for (const p of all.filter((p) => p.status === 'completed')) expect(p.due_date! < today).toBe(true);
    const practices = await db()
      .selectFrom('projects')
      .innerJoin('practices', 'practices.id', 'projects.practice_id')
      .select('practices.name')
      .distinct()
      .execute();
    expect(practices.map((p) => p.name).sort()).toEqual(['PCI DSS Assessment', 'SOC 2 Readiness']);
  });

  it('puts a Client Lead and a Lead Consultant on every project that is or has been active', async () => {
    const all = (await projects()).filter((p) => ['active', 'on_hold', 'completed'].includes(p.status));
    expect(all.length).toBeGreaterThanOrEqual(12);
    const leads = await db()
      .selectFrom('project_members')
      .select(['project_id', 'role'])
      .where('role', 'in', ['Client Lead', 'Lead Consultant'])
      .execute();
    for (const p of all) {
      const held = leads
        .filter((l) => l.project_id === p.id)
        .map((l) => l.role)
        .sort();
      expect({ title: p.title, held }).toEqual({ title: p.title, held: ['Client Lead', 'Lead Consultant'] });
    }
  });

  it('leaves canceled projects without tasks or files (the rules forbid canceling those)', async () => {
    const canceled = (await projects()).filter((p) => p.status === 'canceled').map((p) => p.id);
    expect(canceled.length).toBeGreaterThanOrEqual(4);
    expect(await db().selectFrom('tasks').select('id').where('project_id', 'in', canceled).execute()).toEqual([]);
    expect(await db().selectFrom('files').select('id').where('project_id', 'in', canceled).execute()).toEqual([]);
  });

  it('gives Acme SOC 2 Type II 2026 hundreds of tasks: Task IDs by criterion, subtasks, every status, overdue work, assignees and comments', async () => {
    const projectId = await projectIdOf('Acme SOC 2 Type II 2026');
    const tasks = await db()
      .selectFrom('tasks')
      .select(['id', 'parent_id', 'reference_id', 'title', 'status', 'due_date'])
      .where('project_id', '=', projectId)
      .execute();
    const top = tasks.filter((t) => !t.parent_id);
    expect(top.length).toBeGreaterThanOrEqual(200);
    expect(tasks.length - top.length).toBeGreaterThanOrEqual(100);
    for (const t of top) expect(t.reference_id).toMatch(/^CC[1-9]\.\d-\d{2}$/);
    expect(new Set(tasks.map((t) => t.reference_id!.toLowerCase())).size).toBe(tasks.length);
    expect(new Set(tasks.map((t) => t.status))).toEqual(new Set(TASK_STATUSES));
    const open = tasks.filter((t) => !isClosed(t.status));
    expect(open.filter((t) => t.due_date && t.due_date < today).length).toBeGreaterThan(10);
    expect(open.filter((t) => t.due_date && t.due_date >= today).length).toBeGreaterThan(10);
    const assigned = await db()
      .selectFrom('task_assignees')
      .select('task_id')
      .distinct()
      .where(
        'task_id',
        'in',
        top.map((t) => t.id),
      )
      .execute();
    expect(assigned.length / top.length).toBeGreaterThan(0.8);
    const comments = await db()
      .selectFrom('task_comments')
      .select('task_id')
      .where(
        'task_id',
        'in',
        tasks.map((t) => t.id),
      )
      .execute();
    expect(comments.length).toBeGreaterThanOrEqual(20);
  });

  it("keeps every project's tasks consistent with it: status, company, one level of subtasks, completion and closing time", async () => {
    const all = await projects();
    const tasks = await db()
      .selectFrom('tasks')
      .select([
        'id',
        'project_id',
        'company_id',
        'parent_id',
        'status',
        'created_at',
        'updated_at',
        'completed_at',
        'closed_at',
      ])
      .execute();
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const statusOf = new Map(all.map((p) => [p.id, p]));
    for (const p of all.filter((p) => p.company === 'Acme Corp' || p.company === 'Globex Inc')) {
      // "tens of tasks" in the others: every company has work to show beyond the big one
      if (p.status !== 'canceled' && p.title !== 'Acme SOC 2 Type II 2026')
        expect(tasks.filter((t) => t.project_id === p.id).length).toBeLessThan(150);
    }
    expect(tasks.length).toBeGreaterThanOrEqual(700);
    const ms = (v: unknown) => Date.parse(v instanceof Date ? v.toISOString() : String(v));
    for (const t of tasks) {
      const project = statusOf.get(t.project_id)!;
      expect(t.company_id).toBe(project.company_id);
      if (project.status === 'pending') expect(t.status).toBe('OPEN');
      if (project.status === 'completed') expect(isClosed(t.status)).toBe(true);
      expect(t.completed_at === null).toBe(t.status !== 'COMPLETED');
      expect(t.closed_at === null).toBe(!isClosed(t.status));
      if (t.closed_at !== null) expect(ms(t.closed_at)).toBeGreaterThanOrEqual(ms(t.created_at));
      expect(ms(t.created_at)).toBeLessThanOrEqual(ms(t.updated_at));
      expect(ms(t.updated_at)).toBeLessThan(Date.now());
      if (t.parent_id) {
        const parent = byId.get(t.parent_id)!;
        expect({ project: parent.project_id, grandparent: parent.parent_id }).toEqual({
          project: t.project_id,
          grandparent: null,
        });
      }
    }
  });

  it("assigns work only to staff on the project's roster and active client members of its company", async () => {
    const rows = await db()
      .selectFrom('task_assignees')
      .innerJoin('tasks', 'tasks.id', 'task_assignees.task_id')
      .innerJoin('users', 'users.id', 'task_assignees.user_id')
      .leftJoin('project_members', (join) =>
        join
          .onRef('project_members.project_id', '=', 'tasks.project_id')
          .onRef('project_members.user_id', '=', 'users.id'),
      )
      .leftJoin('company_memberships', (join) =>
        join
          .onRef('company_memberships.company_id', '=', 'tasks.company_id')
          .onRef('company_memberships.user_id', '=', 'users.id'),
      )
      .select([
        'users.email',
        'users.is_tevora',
        'users.status',
        'project_members.role',
        'company_memberships.access_revoked_at',
        'company_memberships.user_id as member',
      ])
      .execute();
    expect(rows.length).toBeGreaterThan(500);
    for (const r of rows) {
      if (r.is_tevora)
        expect({ email: r.email, role: r.role }).toEqual({ email: r.email, role: expect.stringMatching(/Consultant/) });
      else
        expect({ email: r.email, member: Boolean(r.member), revoked: r.access_revoked_at, status: r.status }).toEqual({
          email: r.email,
          member: true,
          revoked: null,
          status: 'active',
        });
    }
  });

  it('gives controls their framework IDs and titles, 1 to 4 points of focus and linked tasks of the same project', async () => {
    const controls = await db()
      .selectFrom('controls')
      .innerJoin('projects', 'projects.id', 'controls.project_id')
      .select(['controls.id', 'controls.project_id', 'controls.name', 'controls.title', 'projects.title as project'])
      .execute();
    const names = (project: string) => controls.filter((c) => c.project === project).map((c) => c.name);
    expect(names('Acme SOC 2 Type II 2026')).toEqual(expect.arrayContaining(['CC1.1', 'CC6.1', 'CC9.2']));
    for (const name of names('Acme SOC 2 Type II 2026')) expect(name).toMatch(/^CC[1-9]\.\d$/);
    expect(names('Acme PCI DSS Assessment')).toEqual(expect.arrayContaining(['1.1', '12.1']));
    for (const name of names('Globex HIPAA Risk Assessment')) expect(name).toMatch(/^164\.3(08|10|12)\([a-e]\)/);
    const points = await db().selectFrom('points_of_focus').select(['control_id', 'project_id']).execute();
    const links = await db()
      .selectFrom('control_tasks')
      .innerJoin('tasks', 'tasks.id', 'control_tasks.task_id')
      .select(['control_tasks.control_id', 'tasks.project_id'])
      .execute();
    for (const c of controls) {
      expect(c.title.length).toBeGreaterThan(5);
      const mine = points.filter((p) => p.control_id === c.id);
      expect({ control: c.name, count: mine.length >= 1 && mine.length <= 4 }).toEqual({
        control: c.name,
        count: true,
      });
      for (const p of mine) expect(p.project_id).toBe(c.project_id);
      const linked = links.filter((l) => l.control_id === c.id);
      expect(linked.length).toBeGreaterThan(0);
      for (const l of linked) expect(l.project_id).toBe(c.project_id);
    }
  });

  it('is deterministic: another seed gives the same projects, Task IDs, titles, statuses, assignees and comments', async () => {
    const other = await createTestDatabase();
    try {
      await migrateToLatest(other.db, other.dialect);
      await seedIfEmpty(other.db, { storage });
      const fingerprint = async (d: TestDatabase['db']) => {
        const tasks = await d
          .selectFrom('tasks')
          .innerJoin('projects', 'projects.id', 'tasks.project_id')
          .select(['projects.title as project', 'tasks.reference_id', 'tasks.title', 'tasks.status'])
          .select((eb) => [
            eb
              .selectFrom('task_assignees')
              .innerJoin('users', 'users.id', 'task_assignees.user_id')
              .select((e) => e.fn.count('users.id').as('n'))
              .whereRef('task_assignees.task_id', '=', 'tasks.id')
              .as('assignees'),
            eb
              .selectFrom('task_comments')
              .select((e) => e.fn.max('task_comments.body').as('b'))
              .whereRef('task_comments.task_id', '=', 'tasks.id')
              .as('comment'),
          ])
          .orderBy('projects.title')
          .orderBy('tasks.reference_id')
          .execute();
        return tasks.map((t) => ({ ...t, assignees: Number(t.assignees) }));
      };
      const mine = await fingerprint(db());
      expect(mine.length).toBeGreaterThan(700);
      expect(await fingerprint(other.db)).toEqual(mine);
      const files = (d: TestDatabase['db']) =>
        d
          .selectFrom('file_versions as v')
          .innerJoin('files as f', 'f.id', 'v.file_id')
          .innerJoin('folders as fo', 'fo.id', 'f.folder_id')
          .innerJoin('projects as p', 'p.id', 'f.project_id')
          .select(['p.title', 'fo.name as folder', 'f.name', 'v.version', 'v.size', 'v.sha256', 'v.content_type'])
          .orderBy('p.title')
          .orderBy('f.name')
          .orderBy('v.version')
          .execute();
      const myFiles = await files(db());
      expect(myFiles.length).toBeGreaterThan(10);
      expect(await files(other.db)).toEqual(myFiles);
    } finally {
      await other.destroy();
    }
  });
});

describe('the demo folders and files', () => {
  it('gives every project one root, Files, with Policies, Evidence (and its Q1) and Reports below it', async () => {
    const projects = await db().selectFrom('projects').select(['id', 'title']).execute();
    const folders = await db().selectFrom('folders').select(['id', 'project_id', 'parent_id', 'name']).execute();
    for (const p of projects) {
      const mine = folders.filter((f) => f.project_id === p.id);
      const roots = mine.filter((f) => f.parent_id === null);
      expect({ title: p.title, roots: roots.map((r) => r.name) }).toEqual({ title: p.title, roots: ['Files'] });
      const nameOf = (id: string | null) => mine.find((f) => f.id === id)?.name ?? null;
      expect(
        mine
          .filter((f) => f.parent_id)
          .map((f) => `${nameOf(f.parent_id)}/${f.name}`)
          .sort(),
      ).toEqual(['Evidence/Q1', 'Files/Evidence', 'Files/Policies', 'Files/Reports']);
    }
  });

  it('stores a handful of real files in the chosen projects: each version names bytes that are there, with their hash', async () => {
    const rows = await db()
      .selectFrom('files as f')
      .innerJoin('projects as p', 'p.id', 'f.project_id')
      .innerJoin('file_versions as v', 'v.file_id', 'f.id')
      .select([
        'p.title',
        'p.company_id as project_company',
        'f.company_id',
        'f.name',
        'f.current_version_id',
        'f.size as file_size',
        'v.id',
        'v.version',
        'v.size',
        'v.sha256',
        'v.storage_key',
        'v.content_type',
      ])
      .execute();
    expect(new Set(rows.map((r) => r.title))).toEqual(new Set(FILE_PROJECTS));
    expect(new Set(rows.map((r) => r.content_type))).toEqual(
      new Set([
        'application/pdf',
        'image/png',
        expect.stringMatching(/^text\/csv/),
        expect.stringMatching(/^text\/plain/),
      ]),
    );
    for (const r of rows) {
      expect(r.company_id).toBe(r.project_company);
      const stream = await storage.open(r.storage_key);
      expect(stream).not.toBeNull();
      const chunks: Buffer[] = [];
      for await (const chunk of stream!) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect({ name: r.name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({
        name: r.name,
        size: Number(r.size),
        sha256: r.sha256,
      });
    }
    // the policy has two versions; the file row follows its newest
    const policy = rows
      .filter((r) => r.name === 'Information Security Policy.pdf' && r.title === FILE_PROJECTS[0])
      .sort((a, b) => a.version - b.version);
    expect(policy.map((r) => r.version)).toEqual([1, 2]);
    expect(policy[1].current_version_id).toBe(policy[1].id);
    expect(Number(policy[1].file_size)).toBe(Number(policy[1].size));
    const onTasks = await db().selectFrom('task_files').select('file_id').execute();
    expect(onTasks.length).toBe(FILE_PROJECTS.length);
  });
});

describe('the demo requests', () => {
  const today = new Date().toISOString().slice(0, 10);
  const ms = (v: unknown) => Date.parse(v instanceof Date ? v.toISOString() : String(v));
  const requestsOf = async (company: string) =>
    db()
      .selectFrom('requests')
      .selectAll()
      .where('company_id', '=', await companyIdOf(company))
      .orderBy('number')
      .execute();
  const daysUntil = (day: string) =>
    Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);

  it('gives Acme Corp REQ-0001 to REQ-0014 in every status and priority, due in the past, the next days, later or never', async () => {
    const rows = await requestsOf('Acme Corp');
    expect(rows.map((r) => [r.reference, r.number])).toEqual(
      rows.map((_, i) => [formatRequestReference(i + 1), i + 1]),
    );
    expect(rows).toHaveLength(14);
    const count = (status: string) => rows.filter((r) => r.status === status).length;
    expect(Object.fromEntries(REQUEST_STATUSES.map((s) => [s, count(s)]))).toEqual({
      open: 7,
      submitted: 2,
      returned: 1,
      accepted: 2,
      canceled: 2,
    });
    expect(new Set(rows.map((r) => r.priority))).toEqual(new Set(REQUEST_PRIORITIES));
    const active = rows.filter((r) => REQUEST_ACTIVE_STATUSES.includes(r.status));
    expect(active.filter((r) => isRequestOverdue(r.due_date, r.status, today)).length).toBeGreaterThanOrEqual(3);
    expect(
      active.filter((r) => r.due_date && daysUntil(r.due_date) >= 1 && daysUntil(r.due_date) <= 3).length,
    ).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.due_date && daysUntil(r.due_date) > 3).length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((r) => r.due_date === null).length).toBeGreaterThanOrEqual(2);
    // past due but closed: not overdue
    expect(rows.some((r) => r.status === 'accepted' && r.due_date! < today)).toBe(true);
    const requesters = await db()
      .selectFrom('users')
      .select(['id', 'email'])
      .where(
        'id',
        'in',
        rows.map((r) => r.requester_id!),
      )
      .execute();
    expect(requesters.map((u) => u.email).sort()).toEqual(['admin@demo.test', 'consultant@demo.test']);
    for (const r of rows) expect(r.created_by).toBe(r.requester_id);
    // numbered in the order they were made
    for (let i = 1; i < rows.length; i++) expect(ms(rows[i].created_at)).toBeGreaterThan(ms(rows[i - 1].created_at));
  });

  it('links Acme requests to Acme projects, and some to a task or a control of the SOC 2 project', async () => {
    const rows = await requestsOf('Acme Corp');
    const projects = await db().selectFrom('projects').select(['id', 'title', 'company_id']).execute();
    const linked = rows.filter((r) => r.project_id);
    expect(linked.length).toBeGreaterThanOrEqual(8);
    expect(rows.some((r) => r.project_id === null)).toBe(true);
    for (const r of linked) expect(projects.find((p) => p.id === r.project_id)!.company_id).toBe(r.company_id);
    const soc2 = projects.find((p) => p.title === 'Acme SOC 2 Type II 2026')!.id;
    const tasks = await db()
      .selectFrom('tasks')
      .select(['id', 'project_id'])
      .where(
        'id',
        'in',
        rows.filter((r) => r.task_id).map((r) => r.task_id!),
      )
      .execute();
    const controls = await db()
      .selectFrom('controls')
      .select(['id', 'project_id'])
      .where(
        'id',
        'in',
        rows.filter((r) => r.control_id).map((r) => r.control_id!),
      )
      .execute();
    expect(tasks.length).toBeGreaterThanOrEqual(2);
    expect(controls.length).toBeGreaterThanOrEqual(2);
    for (const r of rows.filter((r) => r.task_id || r.control_id)) {
      expect(r.project_id).toBe(soc2);
      if (r.task_id) expect(tasks.find((t) => t.id === r.task_id)!.project_id).toBe(soc2);
      if (r.control_id) expect(controls.find((c) => c.id === r.control_id)!.project_id).toBe(soc2);
    }
  });

  it('assigns Acme requests to its active client members and teams; member@acme.test sees some of them, not all', async () => {
    const acme = await companyIdOf('Acme Corp');
    const rows = await requestsOf('Acme Corp');
    const assignees = await db()
      .selectFrom('request_assignees')
      .innerJoin('users', 'users.id', 'request_assignees.user_id')
      .leftJoin('company_memberships', (join) =>
        join.onRef('company_memberships.user_id', '=', 'users.id').on('company_memberships.company_id', '=', acme),
      )
      .select([
        'request_assignees.request_id',
        'users.email',
        'users.is_tevora',
        'company_memberships.user_id as member',
        'company_memberships.access_revoked_at',
      ])
      .where(
        'request_assignees.request_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(new Set(assignees.map((a) => a.email))).toEqual(
      new Set(['lead@acme.test', 'member@acme.test', 'both@acme.test']),
    );
    for (const a of assignees)
      expect({
        email: a.email,
        staff: Boolean(a.is_tevora),
        member: a.member !== null,
        revoked: a.access_revoked_at,
      }).toEqual({ email: a.email, staff: false, member: true, revoked: null });
    const teams = await db()
      .selectFrom('request_teams')
      .innerJoin('teams', 'teams.id', 'request_teams.team_id')
      .select(['teams.name', 'teams.company_id'])
      .where(
        'request_teams.request_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(new Set(teams.map((t) => t.name))).toEqual(new Set(['Compliance Team', 'Security Engineering']));
    for (const t of teams) expect(t.company_id).toBe(acme);
    const teamed = await db().selectFrom('request_teams').select('request_id').execute();
    const assigned = new Set([...assignees.map((a) => a.request_id), ...teamed.map((t) => t.request_id)]);
    expect(rows.filter((r) => !assigned.has(r.id)).map((r) => r.reference)).toEqual([]);

    const visibleTo = async (email: string) => {
      const user = (await findUserCredentialsByEmail(db(), email))!.user;
      const scope = await requestScopeFor(db(), user, acme);
      return db()
        .selectFrom('requests')
        .select('reference')
        .where('company_id', '=', acme)
        .where((eb) => requestVisible(eb, scope))
        .orderBy('reference')
        .execute();
    };
    const member = await visibleTo('member@acme.test');
    const mine = assignees
      .filter((a) => a.email === 'member@acme.test')
      .map((a) => rows.find((r) => r.id === a.request_id)!.reference);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(member.map((r) => r.reference)).toEqual(expect.arrayContaining(mine));
    expect(member.length).toBeLessThan(rows.length - 4);
    expect(await visibleTo('lead@acme.test')).toHaveLength(rows.length);
  });

  it('keeps every history consistent with its request: created, assigned, files, comments and status changes that replay to the status', async () => {
    const rows = await db().selectFrom('requests').selectAll().execute();
    const users = new Map(
      (await db().selectFrom('users').select(['id', 'first_name', 'last_name', 'is_tevora']).execute()).map((u) => [
        u.id,
        u,
      ]),
    );
    const events = await db().selectFrom('request_events').selectAll().orderBy('created_at').execute();
    const files = await db().selectFrom('request_files').selectAll().execute();
    const comments = await db().selectFrom('request_comments').selectAll().execute();
    const assignees = await db().selectFrom('request_assignees').selectAll().execute();
    const teams = await db()
      .selectFrom('request_teams')
      .innerJoin('teams', 'teams.id', 'request_teams.team_id')
      .select(['request_teams.request_id', 'teams.name'])
      .execute();
    for (const r of rows) {
      const mine = events.filter((e) => e.request_id === r.id);
      const detail = (e: (typeof mine)[number]) => JSON.parse(e.detail) as RequestEvent['detail'];
      expect({ ref: r.reference, first: mine[0]?.type, actor: mine[0]?.actor_id, at: ms(mine[0]?.created_at) }).toEqual(
        { ref: r.reference, first: 'created', actor: r.requester_id, at: ms(r.created_at) },
      );
      for (let i = 1; i < mine.length; i++) expect(ms(mine[i].created_at)).toBeGreaterThan(ms(mine[i - 1].created_at));
      expect(ms(r.updated_at)).toBe(ms(mine[mine.length - 1].created_at));

      const assignedUsers = assignees
        .filter((a) => a.request_id === r.id)
        .map((a) => `${users.get(a.user_id)!.first_name} ${users.get(a.user_id)!.last_name}`);
      const assignedTeams = teams.filter((t) => t.request_id === r.id).map((t) => t.name);
      const assigned = mine.filter((e) => e.type === 'assigned');
      if (assignedUsers.length + assignedTeams.length) {
        expect(assigned).toHaveLength(1);
        expect({
          ref: r.reference,
          users: detail(assigned[0]).users?.sort(),
          teams: detail(assigned[0]).teams?.sort(),
        }).toEqual({ ref: r.reference, users: assignedUsers.sort(), teams: assignedTeams.sort() });
      } else expect(assigned).toEqual([]);

      let status = 'open';
      let lastReturn: string | null = null;
      let lastSubmit: number | null = null;
      for (const e of mine.filter((e) => e.type === 'status')) {
        const d = detail(e);
        expect({ ref: r.reference, from: d.from, to: d.to }).toEqual({
          ref: r.reference,
          from: status,
          to: REQUEST_TRANSITIONS[d.action!].to,
        });
        expect(REQUEST_TRANSITIONS[d.action!].from).toContain(status);
        // who may take the action: clients respond, staff manage
        expect({ ref: r.reference, action: d.action, staff: Boolean(users.get(e.actor_id!)!.is_tevora) }).toEqual({
          ref: r.reference,
          action: d.action,
          staff: REQUEST_TRANSITIONS[d.action!].by === 'manage',
        });
        status = d.to!;
        if (d.action === 'return') lastReturn = d.reason!;
        if (d.action === 'submit') lastSubmit = ms(e.created_at);
      }
      expect({ ref: r.reference, status }).toEqual({ ref: r.reference, status: r.status });
      expect(r.return_reason).toBe(r.status === 'returned' ? lastReturn : null);
      expect(r.submitted_at === null ? null : ms(r.submitted_at)).toBe(lastSubmit);
      expect(r.accepted_at !== null).toBe(r.status === 'accepted');
      expect(r.canceled_at !== null).toBe(r.status === 'canceled');

      const myFiles = files.filter((f) => f.request_id === r.id);
      expect(
        mine
          .filter((e) => e.type === 'file_added')
          .map((e) => detail(e).name)
          .sort(),
      ).toEqual(myFiles.map((f) => f.name).sort());
      if (['submitted', 'accepted', 'returned'].includes(r.status))
        expect({ ref: r.reference, files: myFiles.length > 0 }).toEqual({ ref: r.reference, files: true });
      for (const f of myFiles) expect(f.company_id).toBe(r.company_id);
      const myComments = comments.filter((c) => c.request_id === r.id);
      const commentEvents = mine.filter((e) => e.type === 'comment');
      expect(commentEvents.map((e) => Boolean(e.internal)).sort()).toEqual(
        myComments.map((c) => Boolean(c.internal)).sort(),
      );
      for (const e of commentEvents) expect(Boolean(e.internal)).toBe(Boolean(detail(e).internal));
      for (const c of myComments.filter((c) => c.internal)) expect(users.get(c.author_id!)!.is_tevora).toBeTruthy();
    }
  });

  it('stores the evidence bytes with their hash, and gives Acme comments from both sides and one internal staff note', async () => {
    const acme = await companyIdOf('Acme Corp');
    const files = await db().selectFrom('request_files').selectAll().where('company_id', '=', acme).execute();
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(new Set(files.map((f) => f.content_type.split(';')[0]))).toEqual(
      new Set(['application/pdf', 'text/plain', 'text/csv']),
    );
    for (const f of files) {
      const stream = await storage.open(f.storage_key);
      expect(stream).not.toBeNull();
      const chunks: Buffer[] = [];
      for await (const chunk of stream!) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect({ name: f.name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({
        name: f.name,
        size: Number(f.size),
        sha256: f.sha256,
      });
    }
    const comments = await db()
      .selectFrom('request_comments')
      .innerJoin('requests', 'requests.id', 'request_comments.request_id')
      .innerJoin('users', 'users.id', 'request_comments.author_id')
      .select(['users.is_tevora', 'request_comments.internal'])
      .where('requests.company_id', '=', acme)
      .execute();
    expect(comments.filter((c) => c.internal)).toHaveLength(1);
    expect(comments.some((c) => !c.is_tevora)).toBe(true);
    expect(comments.some((c) => c.is_tevora && !c.internal)).toBe(true);
  });

  it('gives Globex Inc three requests of its own while its requests module is off', async () => {
    const rows = await requestsOf('Globex Inc');
    expect(rows.map((r) => r.reference)).toEqual(['REQ-0001', 'REQ-0002', 'REQ-0003']);
    expect(
      await moduleAccessFor(db(), await idOf('client@globex.test'), await companyIdOf('Globex Inc')),
    ).toMatchObject({ requests: false });
    const projects = await db()
      .selectFrom('projects')
      .select('company_id')
      .where(
        'id',
        'in',
        rows.filter((r) => r.project_id).map((r) => r.project_id!),
      )
      .execute();
    for (const p of projects) expect(p.company_id).toBe(await companyIdOf('Globex Inc'));
  });

  it("links the demo bell notifications about requests to seeded requests, with the api's texts", async () => {
    const rows = await db()
      .selectFrom('notifications')
      .select(['title', 'link', 'company_id'])
      .where((eb) => eb.or([eb('link', 'like', '/requests%'), eb('title', 'like', '%REQ-%')]))
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const n of rows) {
      const id = n.link!.replace(/^\/requests\//, '');
      const request = await db()
        .selectFrom('requests')
        .select(['reference', 'title', 'company_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(n.title).toContain(`${request.reference}`);
      expect(n.title.endsWith(`: ${request.title}`)).toBe(true);
      expect(n.company_id).toBe(request.company_id);
    }
  });
});
