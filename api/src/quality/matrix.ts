/**
 * The authorization matrix (`npm run test:matrix`; run by `.ci/run`): every role against every
 * resource and action, each cell with an explicit expected answer, checked over the real app on a
 * fresh seeded database and printed as a table.
 *
 *   allow  the call gets through authorization (2xx; a 400/409 naming a rule of the call counts too)
 *   403    refused: the caller is known but lacks the right (or the module)
 *   404    not found: the thing is another company's or not visible to the caller (never revealed)
 *   401    anonymous
 * An action a resource does not have (deleting a project, updating the audit log) is not listed.
 *
 * Every write a cell makes is on a thing made for that cell (a fresh task, team, request...), so the
 * cells do not depend on each other. Exit code 1 when any cell differs from its expectation.
 *
 *   tsx api/src/quality/matrix.ts
 *
 * Longer than 400 lines: most of it is the matrix itself, one table of cells with their expected
 * answers, kept in one place so that a reviewer reads every role against every resource together.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { setUserModuleAccess } from '../db/module-access';
import { createTestApp, type TestApp } from '../test/app';

const ROLES = {
  'staff admin': 'admin@demo.test',
  staff: 'consultant@demo.test',
  auditor: 'auditor@demo.test',
  'client lead': 'lead@acme.test',
  'client member': 'member@acme.test',
  'client, module off': 'james.patel@acme.test',
  'other company': 'client@globex.test',
  anonymous: null,
} as const;
type Role = keyof typeof ROLES;
const ROLE_NAMES = Object.keys(ROLES) as Role[];
const ACTIONS = ['list', 'read', 'create', 'update', 'delete', 'download'] as const;
type Action = (typeof ACTIONS)[number];
type Expect = 'allow' | 401 | 403 | 404;

interface Ids {
  acme: string;
  project: string;
  task: string;
  file: string;
  request: string;
  acmeUser: string;
  team: string;
  practice: string;
  /** both@acme.test: a user of Acme and of Globex. */
  sharedUser: string;
}

/** One call: made fresh per role (its own target when the call changes or removes something). */
type Call = (t: TestApp, ids: Ids) => Promise<InjectOptions>;

interface Resource {
  name: string;
  calls: Partial<Record<Action, Call>>;
  /** Per action, the answer of each role, in ROLES order. */
  expect: Partial<Record<Action, Expect[]>>;
}

const A = 'allow' as const;
let counter = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${(counter += 1)}`;

async function adminCall(t: TestApp, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await t.api({ ...options, cookie: await t.cookieFor('admin@demo.test') });
  if (res.statusCode >= 300)
    throw new Error(`setup ${options.method} ${options.url} answered ${res.statusCode}: ${res.body}`);
  return res;
}
const newTask = async (t: TestApp, ids: Ids) =>
  (
    await adminCall(t, {
      method: 'POST',
      url: `/api/v1/projects/${ids.project}/tasks`,
      payload: { title: unique('Matrix task') },
    })
  ).json().id as string;
const newTeam = async (t: TestApp, ids: Ids) =>
  (
    await adminCall(t, {
      method: 'POST',
      url: `/api/v1/companies/${ids.acme}/teams`,
      payload: { name: unique('Matrix team') },
    })
  ).json().id as string;
const newRequest = async (t: TestApp, ids: Ids) =>
  (
    await adminCall(t, {
      method: 'POST',
      url: `/api/v1/companies/${ids.acme}/requests`,
      payload: { title: unique('Matrix request'), assigneeIds: [ids.acmeUser] },
    })
  ).json().id as string;

const newDomain = async (t: TestApp, ids: Ids) =>
  (
    await adminCall(t, {
      method: 'POST',
      url: `/api/v1/companies/${ids.acme}/domains`,
      payload: { domain: `m${(counter += 1)}-${Date.now().toString(36)}.matrix.test` },
    })
  ).json().id as string;

let folderId = '';
function multipartFile(name: string, text: string): { payload: string; headers: Record<string, string> } {
  const boundary = 'matrixboundary';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folderId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const newFile = async (t: TestApp, ids: Ids) => {
  const { payload, headers } = multipartFile(`${unique('matrix')}.txt`.replace(/ /g, '-'), 'matrix');
  const res = await adminCall(t, { method: 'POST', url: `/api/v1/projects/${ids.project}/files`, payload, headers });
  const body = res.json();
  return (body.id ?? body.results?.[0]?.id ?? body.files?.[0]?.id) as string;
};

// Auditors see only the companies of projects they hold a role on (none at Acme): 404 there.
//            staff admin, staff, auditor, client lead, client member, module off, other company, anonymous
const RESOURCES: Resource[] = [
  {
    name: 'projects',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/projects` }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/projects/${ids.project}` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/projects`,
        payload: { title: unique('Matrix project') },
      }),
      update: async (_t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/projects/${ids.project}`,
        payload: { description: 'Matrix' },
      }),
    },
    expect: {
      list: [A, A, 404, A, A, 403, 404, 401],
      read: [A, A, 404, A, A, 403, 404, 401],
      create: [A, A, 404, 403, 403, 403, 404, 401],
      update: [A, A, 404, 403, 403, 403, 404, 401],
    },
  },
  {
    name: 'tasks',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/projects/${ids.project}/tasks` }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/projects/${ids.project}/tasks/${ids.task}` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/projects/${ids.project}/tasks`,
        payload: { title: unique('Matrix task') },
      }),
      update: async (t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/projects/${ids.project}/tasks/${await newTask(t, ids)}`,
        payload: { description: 'Matrix' },
      }),
      delete: async (t, ids) => ({
        method: 'DELETE',
        url: `/api/v1/projects/${ids.project}/tasks/${await newTask(t, ids)}`,
      }),
    },
    expect: {
      list: [A, A, 404, A, A, 403, 404, 401],
      read: [A, A, 404, A, A, 403, 404, 401],
      create: [A, A, 404, A, 403, 403, 404, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
      delete: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    name: 'project files',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/projects/${ids.project}/files` }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/projects/${ids.project}/files/${ids.file}` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/projects/${ids.project}/files`,
        ...multipartFile(`${unique('m')}.txt`.replace(/ /g, '-'), 'x'),
      }),
      update: async (t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/projects/${ids.project}/files/${await newFile(t, ids)}`,
        payload: { name: `${unique('renamed')}.txt`.replace(/ /g, '-') },
      }),
      delete: async (t, ids) => ({
        method: 'DELETE',
        url: `/api/v1/projects/${ids.project}/files/${await newFile(t, ids)}`,
      }),
      download: async (_t, ids) => ({ method: 'GET', url: `/api/v1/files/${ids.file}/signed-url` }),
    },
    expect: {
      list: [A, A, 404, A, A, 403, 404, 401],
      read: [A, A, 404, A, A, 403, 404, 401],
      create: [A, A, 404, A, 403, 403, 404, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
      delete: [A, A, 404, A, 403, 403, 404, 401],
      download: [A, A, 404, A, A, 404, 404, 401],
    },
  },
  {
    name: 'evidence requests',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/requests` }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/requests/${ids.request}` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/requests`,
        payload: { title: unique('Matrix request') },
      }),
      update: async (t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/requests/${await newRequest(t, ids)}`,
        payload: { description: 'Matrix' },
      }),
      download: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/requests/export?format=csv` }),
    },
    expect: {
      list: [A, A, 404, A, A, 403, 404, 401],
      read: [A, A, 404, A, A, 403, 404, 401],
      create: [A, A, 404, 403, 403, 403, 404, 401],
      update: [A, A, 404, 403, 403, 403, 404, 401],
      // what the caller sees, internal notes for staff only
      download: [A, A, 404, A, A, 403, 404, 401],
    },
  },
  {
    name: 'reports',
    calls: {
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/reports/status` }),
      download: async (_t, ids) => ({
        method: 'GET',
        url: `/api/v1/companies/${ids.acme}/reports/status/export?format=csv`,
      }),
    },
    expect: {
      // member@acme.test has the reports module off for them in the demo data
      read: [A, A, 404, A, 403, 403, 404, 401],
      download: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    name: 'company',
    calls: {
      list: async () => ({ method: 'GET', url: '/api/v1/companies' }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}` }),
      create: async () => ({ method: 'POST', url: '/api/v1/companies', payload: { name: unique('Matrix Co') } }),
      update: async (_t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/companies/${ids.acme}`,
        payload: { name: 'Acme Corp' },
      }),
    },
    expect: {
      list: [A, A, A, A, A, A, A, 401],
      read: [A, A, 404, A, A, A, 404, 401],
      create: [A, 403, 403, 403, 403, 403, 403, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    name: 'company users',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/users` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/users`,
        payload: { email: `${unique('m').replace(/\W/g, '')}@acme.test`, firstName: 'Matrix', lastName: 'User' },
      }),
      update: async (_t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/companies/${ids.acme}/users/${ids.acmeUser}/role`,
        payload: { role: 'member' },
      }),
    },
    expect: {
      // members see who is in their company (pickers); managing them needs the permission
      list: [A, A, 404, A, A, A, 404, 401],
      create: [A, A, 404, A, 403, 403, 404, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    // the email domains single sign-on may sign in; verify answers 400 here (no TXT record): past authorization
    name: 'sso domains',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/identity-provider` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/domains`,
        payload: { domain: `c${(counter += 1)}-${Date.now().toString(36)}.matrix.test` },
      }),
      update: async (t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/domains/${await newDomain(t, ids)}/verify`,
      }),
      delete: async (t, ids) => ({
        method: 'DELETE',
        url: `/api/v1/companies/${ids.acme}/domains/${await newDomain(t, ids)}`,
      }),
    },
    expect: {
      list: [A, A, 404, A, 403, 403, 404, 401],
      create: [A, A, 404, A, 403, 403, 404, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
      delete: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    // a domain confirmed without its DNS record: staff admins only
    name: 'sso domain confirm',
    calls: {
      update: async (t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/domains/${await newDomain(t, ids)}/confirm`,
      }),
    },
    expect: { update: [A, 403, 404, 403, 403, 403, 404, 401] },
  },
  {
    // both@acme.test also belongs to Globex: the account is changed only by whoever administers all of its companies
    name: 'shared user account',
    calls: {
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/users/${ids.sharedUser}` }),
      update: async (_t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/users/${ids.sharedUser}`,
        payload: { title: unique('Title') },
      }),
    },
    expect: {
      read: [A, A, 403, A, 403, 403, 403, 401],
      update: [A, A, 403, 403, 403, 403, 403, 401],
    },
  },
  {
    name: 'teams',
    calls: {
      list: async (_t, ids) => ({ method: 'GET', url: `/api/v1/companies/${ids.acme}/teams` }),
      create: async (_t, ids) => ({
        method: 'POST',
        url: `/api/v1/companies/${ids.acme}/teams`,
        payload: { name: unique('Matrix team') },
      }),
      update: async (t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/companies/${ids.acme}/teams/${await newTeam(t, ids)}`,
        payload: { name: unique('Renamed team') },
      }),
      delete: async (t, ids) => ({
        method: 'DELETE',
        url: `/api/v1/companies/${ids.acme}/teams/${await newTeam(t, ids)}`,
      }),
    },
    expect: {
      list: [A, A, 404, A, A, A, 404, 401],
      create: [A, A, 404, A, 403, 403, 404, 401],
      update: [A, A, 404, A, 403, 403, 404, 401],
      delete: [A, A, 404, A, 403, 403, 404, 401],
    },
  },
  {
    name: 'practices',
    calls: {
      list: async () => ({ method: 'GET', url: '/api/v1/practices' }),
      read: async (_t, ids) => ({ method: 'GET', url: `/api/v1/practices/${ids.practice}` }),
      create: async () => ({ method: 'POST', url: '/api/v1/practices', payload: { name: unique('Matrix practice') } }),
      update: async (_t, ids) => ({
        method: 'PATCH',
        url: `/api/v1/practices/${ids.practice}`,
        payload: { description: 'Matrix' },
      }),
    },
    expect: {
      list: [A, A, A, 403, 403, 403, 403, 401],
      read: [A, A, A, 403, 403, 403, 403, 401],
      // consultant@demo.test holds users.editPractices in the demo data; auditors never do
      create: [A, A, 403, 403, 403, 403, 403, 401],
      update: [A, A, 403, 403, 403, 403, 403, 401],
    },
  },
  {
    name: 'audit log',
    calls: { list: async () => ({ method: 'GET', url: '/api/v1/audit-log' }) },
    expect: { list: [A, 403, 403, 403, 403, 403, 403, 401] },
  },
  {
    name: 'feature flags',
    calls: {
      list: async () => ({ method: 'GET', url: '/api/v1/feature-flags/definitions' }),
      update: async () => ({
        method: 'PUT',
        url: '/api/v1/feature-flags/matrix-flag',
        payload: { enabled: false, description: 'Matrix' },
      }),
    },
    expect: {
      list: [A, 403, 403, 403, 403, 403, 403, 401],
      update: [A, 403, 403, 403, 403, 403, 403, 401],
    },
  },
];

function outcome(res: LightMyRequestResponse): Expect | `other ${number}` {
  const s = res.statusCode;
  if (s === 401 || s === 403 || s === 404) return s;
  if ((s >= 200 && s < 300) || s === 400 || s === 409) return A;
  return `other ${s}`;
}

async function main() {
  const t = await createTestApp({ env: { RATE_LIMIT_MAX: '1000000' } });
  const failures: string[] = [];
  const rows: string[][] = [];
  try {
    const db = t.database.db;
    const acme = (
      await db.selectFrom('companies').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
    ).id;
    const project = (
      await db
        .selectFrom('projects')
        .select('id')
        .where('title', '=', 'Acme SOC 2 Type II 2026')
        .executeTakeFirstOrThrow()
    ).id;
    const userId = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const memberId = await userId('member@acme.test');
    const moduleOff = await userId(ROLES['client, module off']);
    for (const module of ['projects', 'requests', 'reports'] as const)
      await setUserModuleAccess(db, acme, moduleOff, module, false);
    // the member's own request: a request they can see (they do not see every Acme request)
    const request = (
      await db
        .selectFrom('requests')
        .innerJoin('request_assignees', 'request_assignees.request_id', 'requests.id')
        .select('requests.id')
        .where('requests.company_id', '=', acme)
        .where('request_assignees.user_id', '=', memberId)
        .orderBy('requests.reference')
        .executeTakeFirstOrThrow()
    ).id;
    // james (module off) is assigned to it too, so a 403 there is the module's and not visibility's
    await db
      .insertInto('request_assignees')
      .values({ request_id: request, user_id: moduleOff })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const practice = (await db.selectFrom('practices').select('id').orderBy('name').executeTakeFirstOrThrow()).id;
    folderId = (
      await db
        .selectFrom('folders')
        .select('id')
        .where('project_id', '=', project)
        .where('parent_id', 'is', null)
        .executeTakeFirstOrThrow()
    ).id;
    const ids: Ids = {
      acme,
      project,
      task: '',
      file: '',
      request,
      acmeUser: memberId,
      team: '',
      practice,
      sharedUser: await userId('both@acme.test'),
    };
    ids.task = await newTask(t, ids);
    ids.file = await newFile(t, ids);
    ids.team = await newTeam(t, ids);

    const cookies = new Map<Role, string | undefined>();
    for (const role of ROLE_NAMES) cookies.set(role, ROLES[role] ? await t.cookieFor(ROLES[role]) : undefined);

    for (const resource of RESOURCES) {
      for (const action of ACTIONS) {
        const call = resource.calls[action];
        const expected = resource.expect[action];
        if (!call) continue;
        if (!expected || expected.length !== ROLE_NAMES.length)
          throw new Error(`${resource.name} ${action}: give one expectation per role`);
        const cells: string[] = [];
        for (const [i, role] of ROLE_NAMES.entries()) {
          const options = await call(t, ids);
          const res = await t.api({ ...options, cookie: cookies.get(role) });
          const got = outcome(res);
          const ok = got === expected[i];
          cells.push(ok ? String(got) : `${got}!=${expected[i]}`);
          if (!ok)
            failures.push(
              `${resource.name} / ${action} / ${role}: expected ${expected[i]}, got ${res.statusCode} ${res.body.slice(0, 160)}`,
            );
        }
        rows.push([resource.name, action, ...cells]);
      }
    }
  } finally {
    await t.close();
  }

  const header = ['resource', 'action', ...ROLE_NAMES];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
  const checked = rows.reduce((n, r) => n + r.length - 2, 0);
  console.log(`\n${checked} cells checked, ${failures.length} differ from the expected answer`);
  for (const f of failures) console.log(`  ${f}`);
  if (failures.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
