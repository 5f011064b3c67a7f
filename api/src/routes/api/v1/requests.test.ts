import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { RequestAssigneeOptions, RequestDetail, RequestEvent, RequestList } from '@portal/shared/core/requests';
import { setUserModuleAccess } from '../../../db/module-access';
import { insertRequest, lockRequest } from '../../../db/requests';
import { addTeamMember, insertTeam } from '../../../db/teams';
import { nowIso } from '../../../db/values';
import { TEST_DATABASE_URL, createTestApp, type TestApp } from '../../../test/app';
import { companyId } from '../../../test/identity';
import {
  cookiesFor,
  day,
  insertControl,
  insertTask,
  newActiveProject,
  newCompany,
  newUser,
  userIdsByEmail,
} from '../../../test/project-fixtures';

let t: TestApp;
let acmeId: string;
let globexId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** An Acme project: consultant@demo.test Lead Consultant, lead@acme.test Client Lead (member@acme.test holds no role). */
let projectId: string;
let otherProjectId: string;
/** An Acme team whose only member is member@acme.test. */
let memberTeamId: string;

const EMAILS = [
  'admin@demo.test',
  'consultant@demo.test',
  'auditor@demo.test',
  'lead@acme.test',
  'member@acme.test',
  'client@globex.test',
  'both@acme.test',
];

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
  userIds = await userIdsByEmail(t);
  cookies = await cookiesFor(t, EMAILS);
  projectId = await newActiveProject(t, acmeId, 'Requests test project', [
    [userIds['consultant@demo.test'], 'Lead Consultant'],
    [userIds['lead@acme.test'], 'Client Lead'],
  ]);
  otherProjectId = await newActiveProject(t, acmeId, 'Requests other project', [
    [userIds['consultant@demo.test'], 'Lead Consultant'],
  ]);
  memberTeamId = await insertTeam(t.database.db, acmeId, `Evidence team ${randomUUID().slice(0, 6)}`);
  await addTeamMember(t.database.db, memberTeamId, userIds['member@acme.test']);
});
afterAll(() => t.close());

const consultant = () => cookies['consultant@demo.test'];
const lead = () => cookies['lead@acme.test'];
const member = () => cookies['member@acme.test'];

const listUrl = (company = acmeId) => `/api/v1/companies/${company}/requests`;
const requestUrl = (id: string) => `/api/v1/requests/${id}`;

async function createRequest(
  payload: Record<string, unknown>,
  cookie = consultant(),
  company = acmeId,
): Promise<RequestDetail> {
  const res = await t.api({ method: 'POST', url: listUrl(company), cookie, payload });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as RequestDetail;
}

async function getRequest(id: string, cookie = consultant()): Promise<RequestDetail> {
  const res = await t.api({ method: 'GET', url: requestUrl(id), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as RequestDetail;
}

async function list(query: string, cookie = consultant(), company = acmeId): Promise<RequestList> {
  const res = await t.api({ method: 'GET', url: `${listUrl(company)}?${query}`, cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return res.json() as RequestList;
}

async function history(id: string, cookie = consultant()): Promise<RequestEvent[]> {
  const res = await t.api({ method: 'GET', url: `${requestUrl(id)}/history`, cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200 });
  return (res.json() as { results: RequestEvent[] }).results;
}

const transition = (id: string, payload: Record<string, unknown>, cookie = consultant()) =>
  t.api({ method: 'POST', url: `${requestUrl(id)}/transitions`, cookie, payload });

const patch = (id: string, payload: Record<string, unknown>, cookie = consultant()) =>
  t.api({ method: 'PATCH', url: requestUrl(id), cookie, payload });

const bulk = (payload: Record<string, unknown>, cookie = consultant(), company = acmeId) =>
  t.api({ method: 'POST', url: `${listUrl(company)}/bulk`, cookie, payload });

/** An evidence file written straight to the database (the upload route is another module's). */
async function insertEvidence(requestId: string, uploadedBy = userIds['member@acme.test']): Promise<string> {
  const row = await t.database.db
    .selectFrom('requests')
    .select('company_id')
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  await t.database.db
    .insertInto('request_files')
    .values({
      id,
      request_id: requestId,
      company_id: row.company_id,
      name: 'evidence.pdf',
      content_type: 'application/pdf',
      size: 1234,
      sha256: 'a'.repeat(64),
      storage_key: `test/${id}`,
      uploaded_by: uploadedBy,
      created_at: nowIso(),
    })
    .execute();
  return id;
}

async function statusOf(id: string): Promise<string> {
  const row = await t.database.db
    .selectFrom('requests')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function notificationsOf(userId: string, requestId: string) {
  return t.database.db
    .selectFrom('notifications')
    .select(['title', 'body', 'link', 'company_id'])
    .where('user_id', '=', userId)
    .where('link', '=', `/requests/${requestId}`)
    .orderBy('created_at')
    .execute();
}

const expectFields = (res: { statusCode: number; json(): unknown }, status: number, code: string, fields: string[]) => {
  const body = res.json() as { code: string; details?: { field: string }[] };
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code });
  expect((body.details ?? []).map((d) => d.field)).toEqual(expect.arrayContaining(fields));
};

describe('visibility', () => {
  let direct: RequestDetail;
  let throughTeam: RequestDetail;
  let someoneElse: RequestDetail;
  let onProject: RequestDetail;

  beforeAll(async () => {
    direct = await createRequest({
      title: 'Visible to the member directly',
      assigneeIds: [userIds['member@acme.test']],
    });
    throughTeam = await createRequest({ title: 'Visible to the member through a team', teamIds: [memberTeamId] });
    someoneElse = await createRequest({ title: 'Assigned to someone else', assigneeIds: [userIds['both@acme.test']] });
    onProject = await createRequest({ title: 'On the project', projectId });
  });

  const ids = (page: RequestList) => page.results.map((r) => r.id);

  it('staff who are not auditors and the company admin see every request of the company', async () => {
    for (const cookie of [consultant(), cookies['admin@demo.test'], lead()]) {
      const page = await list('pageSize=200', cookie);
      expect(ids(page)).toEqual(expect.arrayContaining([direct.id, throughTeam.id, someoneElse.id, onProject.id]));
    }
  });

  it('a client member sees only what is assigned to them or their team, and 404 for the rest', async () => {
    const page = await list('pageSize=200', member());
    expect(ids(page)).toEqual(expect.arrayContaining([direct.id, throughTeam.id]));
    expect(ids(page)).not.toContain(someoneElse.id);
    expect(ids(page)).not.toContain(onProject.id);
    expect(page.total).toBe(page.results.length);
    await getRequest(throughTeam.id, member());
    for (const id of [someoneElse.id, onProject.id]) {
      const res = await t.api({ method: 'GET', url: requestUrl(id), cookie: member() });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'request_not_found' });
    }
  });

  it('a client holding a role on the project sees its requests', async () => {
    const both = cookies['both@acme.test'];
    expect(ids(await list('pageSize=200', both))).not.toContain(onProject.id);
    await t.database.db
      .insertInto('project_members')
      .values({ project_id: projectId, user_id: userIds['both@acme.test'], role: 'Consultant' })
      .execute();
    try {
      expect(ids(await list('pageSize=200', both))).toEqual(expect.arrayContaining([onProject.id, someoneElse.id]));
      expect((await getRequest(onProject.id, both)).permissions).toMatchObject({ manage: false, respond: true });
    } finally {
      await t.database.db
        .deleteFrom('project_members')
        .where('project_id', '=', projectId)
        .where('user_id', '=', userIds['both@acme.test'])
        .execute();
    }
  });

  it("another company's client gets 404; a company with requests off answers 403 on every route", async () => {
    const globex = cookies['client@globex.test'];
    const res = await t.api({ method: 'GET', url: requestUrl(direct.id), cookie: globex });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'request_not_found' });
    expect((await t.api({ method: 'GET', url: `${requestUrl(direct.id)}/history`, cookie: globex })).statusCode).toBe(
      404,
    );
    const acmeList = await t.api({ method: 'GET', url: listUrl(), cookie: globex });
    expect(acmeList.statusCode).toBe(404);
    for (const cookie of [globex, consultant()]) {
      const globexList = await t.api({ method: 'GET', url: listUrl(globexId), cookie });
      expect({ status: globexList.statusCode, code: globexList.json().code }).toEqual({
        status: 403,
        code: 'module_access_denied',
      });
    }
    const create = await t.api({
      method: 'POST',
      url: listUrl(globexId),
      cookie: consultant(),
      payload: { title: 'Nope' },
    });
    expect(create.statusCode).toBe(403);
  });

  it('answers 404 for an unknown id and 400 naming id for one holding a NUL', async () => {
    const unknown = await t.api({ method: 'GET', url: requestUrl(randomUUID()), cookie: consultant() });
    expect({ status: unknown.statusCode, code: unknown.json().code }).toEqual({
      status: 404,
      code: 'request_not_found',
    });
    const long = await t.api({ method: 'GET', url: requestUrl('x'.repeat(150)), cookie: consultant() });
    expect(long.statusCode).toBe(404);
    expectFields(
      await t.api({ method: 'GET', url: requestUrl('a%00b'), cookie: consultant() }),
      400,
      'validation_failed',
      ['id'],
    );
  });

  it('a user whose requests module is off gets 403 on the list and on a request', async () => {
    const user = await newUser(t, { companyIds: [acmeId] });
    const cookie = await t.cookieFor(user.email);
    const mine = await createRequest({ title: 'For a user about to lose the module', assigneeIds: [user.id] });
    await getRequest(mine.id, cookie);
    await setUserModuleAccess(t.database.db, acmeId, user.id, 'requests', false);
    for (const url of [listUrl(), `${listUrl()}/assignees`, requestUrl(mine.id), `${requestUrl(mine.id)}/history`]) {
      const res = await t.api({ method: 'GET', url, cookie });
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 403,
        code: 'module_access_denied',
      });
    }
  });

  it('an auditor sees only the requests of projects they hold a role on, and manages nothing', async () => {
    const auditor = await newUser(t, { isTevora: true, isAuditor: true });
    const cookie = await t.cookieFor(auditor.email);
    await t.database.db
      .insertInto('project_members')
      .values({ project_id: projectId, user_id: auditor.id, role: 'Consultant' })
      .execute();
    const page = await list('pageSize=200', cookie);
    expect(ids(page)).toContain(onProject.id);
    expect(ids(page)).not.toContain(direct.id);
    const detail = await getRequest(onProject.id, cookie);
    expect(detail.permissions).toEqual({
      manage: false,
      respond: false,
      actions: [],
      uploadEvidence: false,
      commentInternal: false,
    });
    expect(
      (await t.api({ method: 'POST', url: listUrl(), cookie, payload: { title: 'Auditor request' } })).statusCode,
    ).toBe(403);
    expect((await patch(onProject.id, { title: 'Renamed' }, cookie)).statusCode).toBe(403);
    expect((await transition(onProject.id, { action: 'cancel' }, cookie)).json().code).toBe('forbidden');
    expect((await bulk({ action: 'dueDate', requestIds: [onProject.id], dueDate: null }, cookie)).statusCode).toBe(403);
  });
});

describe('POST /api/v1/companies/:id/requests', () => {
  it('creates an open request numbered REQ-nnnn, with the caller as requester, and records its history', async () => {
    const task = await insertTask(t, projectId, { title: 'Firewall task', referenceId: 'T-1' });
    const control = await insertControl(t, projectId, 'CC6.1', 'Logical access');
    const created = await createRequest({
      title: '  Firewall review ',
      description: 'Export the rules',
      internalNote: 'Check rule 12 first',
      priority: 'high',
      dueDate: '2031-03-31',
      projectId,
      taskId: task,
      controlId: control,
      assigneeIds: [userIds['member@acme.test'], userIds['member@acme.test']],
      teamIds: [memberTeamId],
    });
    expect(created).toMatchObject({
      companyId: acmeId,
      title: 'Firewall review',
      description: 'Export the rules',
      internalNote: 'Check rule 12 first',
      status: 'open',
      priority: 'high',
      dueDate: '2031-03-31',
      overdue: false,
      project: { id: projectId },
      task: { id: task, referenceId: 'T-1', title: 'Firewall task' },
      control: { id: control, name: 'CC6.1', title: 'Logical access' },
      requester: { id: userIds['consultant@demo.test'], isTevora: true },
      assignees: [{ id: userIds['member@acme.test'] }],
      teams: [{ id: memberTeamId }],
      files: [],
      returnReason: null,
      permissions: { manage: true, respond: false, actions: ['cancel'], uploadEvidence: true, commentInternal: true },
    });
    expect(created.reference).toMatch(/^REQ-\d{4,}$/);
    const next = await createRequest({ title: 'The next one' });
    expect(Number(next.reference.slice(4))).toBe(Number(created.reference.slice(4)) + 1);

    const events = await history(created.id);
    expect(events.map((e) => e.type)).toEqual(['created', 'assigned']);
    const member = await t.database.db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', userIds['member@acme.test'])
      .executeTakeFirstOrThrow();
    expect(events[1].detail).toEqual({
      users: [`${member.first_name} ${member.last_name}`],
      teams: [expect.stringMatching(/^Evidence team/)],
    });
    expect(events[0].actor?.id).toBe(userIds['consultant@demo.test']);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'company_id'])
      .where('target_id', '=', created.id)
      .execute();
    expect(audit).toEqual([{ action: 'request.create', company_id: acmeId }]);

    // The assignee (once, though named directly and through the team) hears of it; the creator does not.
    const bells = await notificationsOf(userIds['member@acme.test'], created.id);
    expect(bells).toHaveLength(1);
    expect(bells[0].title).toBe(`New request ${created.reference}: Firewall review`);
    expect(bells[0].company_id).toBe(acmeId);
    expect(await notificationsOf(userIds['consultant@demo.test'], created.id)).toHaveLength(0);
  });

  it('refuses bad input naming each field', async () => {
    expectFields(
      await t.api({ method: 'POST', url: listUrl(), cookie: consultant(), payload: {} }),
      400,
      'validation_failed',
      ['title'],
    );
    expectFields(
      await t.api({
        method: 'POST',
        url: listUrl(),
        cookie: consultant(),
        payload: { title: 'x'.repeat(201), priority: 'urgent', dueDate: '2030-02-30', assigneeIds: 'me' },
      }),
      400,
      'validation_failed',
      ['title', 'priority', 'dueDate', 'assigneeIds'],
    );
    expectFields(
      await t.api({ method: 'POST', url: listUrl(), cookie: consultant(), payload: { title: 'a\u0000b' } }),
      400,
      'validation_failed',
      ['title'],
    );
  });

  it('refuses links and assignees that are not the company’s, writing nothing', async () => {
    const before = await t.database.db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const globexProject = await newActiveProject(t, globexId, 'Globex project');
    const otherTask = await insertTask(t, otherProjectId);
    const otherControl = await insertControl(t, otherProjectId, 'X.1');
    const globexTeam = await insertTeam(t.database.db, globexId, `Globex team ${randomUUID().slice(0, 6)}`);
    const cases: [Record<string, unknown>, string][] = [
      [{ projectId: globexProject }, 'projectId'],
      [{ projectId: 'no-such-project' }, 'projectId'],
      [{ projectId, taskId: otherTask }, 'taskId'],
      [{ taskId: otherTask }, 'taskId'],
      [{ projectId, controlId: otherControl }, 'controlId'],
      [{ assigneeIds: [userIds['consultant@demo.test']] }, 'assigneeIds'],
      [{ assigneeIds: [userIds['client@globex.test']] }, 'assigneeIds'],
      [{ teamIds: [globexTeam] }, 'teamIds'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.api({
        method: 'POST',
        url: listUrl(),
        cookie: consultant(),
        payload: { title: 'Linked', ...payload },
      });
      expect({
        payload,
        status: res.statusCode,
        fields: (res.json().details ?? []).map((d: { field: string }) => d.field),
      }).toEqual({ payload, status: 400, fields: [field] });
    }
    const after = await t.database.db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses client users (403)', async () => {
    for (const cookie of [member(), lead()]) {
      const res = await t.api({ method: 'POST', url: listUrl(), cookie, payload: { title: 'From a client' } });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 403, code: 'forbidden' });
    }
  });

  it('numbers concurrent creations without a duplicate', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        t.api({ method: 'POST', url: listUrl(), cookie: consultant(), payload: { title: `Concurrent ${i}` } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const references = results.map((r) => (r.json() as RequestDetail).reference);
    expect(new Set(references).size).toBe(4);
  });
});

describe('the workflow', () => {
  it('open -> submit -> return -> submit -> accept -> reopen, with the 409s on the way', async () => {
    const r = await createRequest({
      title: 'Access review evidence',
      assigneeIds: [userIds['member@acme.test']],
      dueDate: day(10),
    });

    const asMember = await getRequest(r.id, member());
    expect(asMember.permissions).toEqual({
      manage: false,
      respond: true,
      actions: ['submit'],
      uploadEvidence: true,
      commentInternal: false,
    });

    const empty = await transition(r.id, { action: 'submit' }, member());
    expect({ status: empty.statusCode, code: empty.json().code }).toEqual({
      status: 409,
      code: 'request_evidence_missing',
    });
    const staffSubmit = await transition(r.id, { action: 'submit' }, consultant());
    expect({ status: staffSubmit.statusCode, code: staffSubmit.json().code }).toEqual({
      status: 403,
      code: 'forbidden',
    });
    const early = await transition(r.id, { action: 'accept' }, consultant());
    expect({ status: early.statusCode, code: early.json().code }).toEqual({
      status: 409,
      code: 'invalid_status_transition',
    });

    const fileId = await insertEvidence(r.id);
    expect((await getRequest(r.id, member())).files).toEqual([
      expect.objectContaining({
        id: fileId,
        name: 'evidence.pdf',
        size: 1234,
        uploadedBy: expect.objectContaining({ id: userIds['member@acme.test'] }),
        canDelete: true,
      }),
    ]);
    const submitted = await transition(r.id, { action: 'submit', expectedStatus: 'open' }, member());
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({
      status: 'submitted',
      submittedAt: expect.any(String),
      permissions: { actions: [], uploadEvidence: false },
    });
    expect((submitted.json() as RequestDetail).files[0].canDelete).toBe(false);

    const again = await transition(r.id, { action: 'submit' }, member());
    expect({ status: again.statusCode, code: again.json().code }).toEqual({
      status: 409,
      code: 'invalid_status_transition',
    });
    expect((await transition(r.id, { action: 'accept' }, member())).statusCode).toBe(403);
    expectFields(await transition(r.id, { action: 'return' }), 400, 'validation_failed', ['reason']);
    expectFields(await transition(r.id, { action: 'return', reason: '   ' }), 400, 'validation_failed', ['reason']);
    expectFields(await transition(r.id, { action: 'approve' }), 400, 'validation_failed', ['action']);

    const returned = await transition(r.id, {
      action: 'return',
      reason: 'The export is cut off',
      expectedStatus: 'submitted',
    });
    expect(returned.json()).toMatchObject({
      status: 'returned',
      returnReason: 'The export is cut off',
      permissions: { actions: ['cancel'] },
    });
    expect((await getRequest(r.id, member())).permissions.actions).toEqual(['submit']);

    const resubmitted = await transition(r.id, { action: 'submit' }, member());
    expect(resubmitted.json()).toMatchObject({ status: 'submitted', returnReason: null });

    const stale = await transition(r.id, { action: 'accept', expectedStatus: 'returned' });
    expect({ status: stale.statusCode, code: stale.json().code }).toEqual({
      status: 409,
      code: 'request_status_changed',
    });
    const accepted = await transition(r.id, { action: 'accept', expectedStatus: 'submitted' });
    expect(accepted.json()).toMatchObject({
      status: 'accepted',
      acceptedAt: expect.any(String),
      overdue: false,
      permissions: { actions: ['reopen'], uploadEvidence: false },
    });
    const reopened = await transition(r.id, { action: 'reopen' });
    expect(reopened.json()).toMatchObject({
      status: 'open',
      acceptedAt: null,
      permissions: { actions: ['cancel'], uploadEvidence: true },
    });

    const statuses = (await history(r.id, member())).filter((e) => e.type === 'status').map((e) => e.detail);
    expect(statuses).toEqual([
      { from: 'open', to: 'submitted', action: 'submit', reason: null },
      { from: 'submitted', to: 'returned', action: 'return', reason: 'The export is cut off' },
      { from: 'returned', to: 'submitted', action: 'submit', reason: null },
      { from: 'submitted', to: 'accepted', action: 'accept', reason: null },
      { from: 'accepted', to: 'open', action: 'reopen', reason: null },
    ]);

    // The requester hears of the client's moves, the client of the staff's; nobody of their own.
    const toRequester = (await notificationsOf(userIds['consultant@demo.test'], r.id)).map((n) => n.title);
    expect(toRequester).toEqual([
      `${r.reference} Submitted: Access review evidence`,
      `${r.reference} Submitted: Access review evidence`,
    ]);
    const toMember = (await notificationsOf(userIds['member@acme.test'], r.id)).map((n) => `${n.title} | ${n.body}`);
    expect(toMember).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^${r.reference} Returned: Access review evidence \\| Returned by .+: The export is cut off$`),
        ),
      ]),
    );
    expect(toMember).toHaveLength(4); // assigned, returned, accepted, reopened
  });

  it('cancels from open and reopens', async () => {
    const r = await createRequest({ title: 'To cancel' });
    const canceled = await transition(r.id, { action: 'cancel', reason: 'Not needed' });
    expect(canceled.json()).toMatchObject({ status: 'canceled', canceledAt: expect.any(String) });
    expect((await transition(r.id, { action: 'cancel' })).json().code).toBe('invalid_status_transition');
    expect((await transition(r.id, { action: 'reopen' })).json()).toMatchObject({ status: 'open', canceledAt: null });
  });

  it('lets only one of two racing transitions win', async () => {
    const r = await createRequest({ title: 'Raced', assigneeIds: [userIds['member@acme.test']] });
    await insertEvidence(r.id);
    expect((await transition(r.id, { action: 'submit' }, member())).statusCode).toBe(200);
    const replies = await Promise.all([
      transition(r.id, { action: 'accept', expectedStatus: 'submitted' }),
      transition(r.id, { action: 'return', reason: 'Too late', expectedStatus: 'submitted' }),
    ]);
    const codes = replies.map((res) => res.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = replies.find((res) => res.statusCode === 409)!;
    expect(loser.json().code).toBe('request_status_changed');
    const winner = replies.find((res) => res.statusCode === 200)!.json() as RequestDetail;
    expect(await statusOf(r.id)).toBe(winner.status);
    const moves = (await history(r.id)).filter((e) => e.type === 'status');
    expect(moves).toHaveLength(2);
  });

  // PostgreSQL only: SQLite runs one write transaction at a time, so nothing can commit in between there.
  (TEST_DATABASE_URL ? it : it.skip)(
    'never submits without evidence while the last file is being removed',
    async () => {
      const r = await createRequest({ title: 'Emptied meanwhile', assigneeIds: [userIds['member@acme.test']] });
      const fileId = await insertEvidence(r.id);
      let submitting: ReturnType<typeof transition> | undefined;
      // A removal as the files route makes it: the request locked, the row deleted, not yet committed.
      await t.database.db.transaction().execute(async (trx) => {
        expect(await lockRequest(trx, r.id)).toBe('open');
        await trx.deleteFrom('request_files').where('id', '=', fileId).execute();
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        submitting = transition(r.id, { action: 'submit' }, member());
        // Commit only once the submit waits for this transaction.
        for (let waited = 0; ; waited += 20) {
          const blocked = await sql<{
            n: number;
          }>`select count(*)::int as n from pg_stat_activity where ${rows[0].pid} = any(pg_blocking_pids(pid))`.execute(
            t.database.db,
          );
          if (blocked.rows[0].n > 0) break;
          if (waited > 5000) throw new Error('the submit never waited for the removal');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
      const res = await submitting!;
      expect({ status: res.statusCode, code: res.json().code }).toEqual({
        status: 409,
        code: 'request_evidence_missing',
      });
      expect(await statusOf(r.id)).toBe('open');
    },
  );
});

describe('PATCH /api/v1/requests/:id', () => {
  it('edits fields, records which changed, and keeps internal edits from clients', async () => {
    const r = await createRequest({
      title: 'Editable',
      internalNote: 'First note',
      assigneeIds: [userIds['member@acme.test']],
    });
    expect((await getRequest(r.id, member())).internalNote).toBeNull();

    const res = await patch(r.id, {
      title: 'Edited',
      dueDate: '2032-01-15',
      priority: 'critical',
      description: 'Now with text',
    });
    expect(res.json()).toMatchObject({
      title: 'Edited',
      dueDate: '2032-01-15',
      priority: 'critical',
      description: 'Now with text',
      internalNote: 'First note',
    });
    expect((await patch(r.id, { internalNote: 'Second note' })).json().internalNote).toBe('Second note');
    expect((await patch(r.id, { title: 'Edited again', internalNote: 'Third note' })).statusCode).toBe(200);
    // An edit that changes nothing leaves no trace.
    expect((await patch(r.id, { title: 'Edited again', assigneeIds: [userIds['member@acme.test']] })).statusCode).toBe(
      200,
    );

    const staffView = (await history(r.id)).filter((e) => e.type === 'updated').map((e) => e.detail.fields);
    expect(staffView).toEqual([
      ['title', 'description', 'priority', 'dueDate'],
      ['internalNote'],
      ['title', 'internalNote'],
    ]);
    const clientView = (await history(r.id, member())).filter((e) => e.type === 'updated').map((e) => e.detail.fields);
    expect(clientView).toEqual([['title', 'description', 'priority', 'dueDate'], ['title']]);
    const asClient = await getRequest(r.id, member());
    expect(asClient.internalNote).toBeNull();
    expect(JSON.stringify(await history(r.id, member()))).not.toContain('note');

    expectFields(await patch(r.id, { title: '' }), 400, 'validation_failed', ['title']);
    expect((await patch(r.id, { title: 'By a client' }, member())).json().code).toBe('forbidden');
    expect((await patch(r.id, { title: 'By the admin client' }, lead())).statusCode).toBe(403);
  });

  it('replaces assignees, names them in the history and tells the newcomers', async () => {
    const r = await createRequest({
      title: 'Reassigned',
      assigneeIds: [userIds['member@acme.test']],
      dueDate: '2031-07-04',
    });
    const res = await patch(r.id, { assigneeIds: [userIds['both@acme.test']], teamIds: [memberTeamId] });
    expect(res.json()).toMatchObject({ assignees: [{ id: userIds['both@acme.test'] }], teams: [{ id: memberTeamId }] });
    const events = (await history(r.id)).filter((e) => e.type === 'assigned' || e.type === 'unassigned');
    const names = await t.database.db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('id', 'in', [userIds['member@acme.test'], userIds['both@acme.test']])
      .execute();
    const nameOf = (id: string) => names.find((n) => n.id === id)!;
    const both = nameOf(userIds['both@acme.test']);
    const memberName = nameOf(userIds['member@acme.test']);
    expect(events.slice(1).map((e) => [e.type, e.detail])).toEqual([
      [
        'assigned',
        { users: [`${both.first_name} ${both.last_name}`], teams: [expect.stringMatching(/^Evidence team/)] },
      ],
      ['unassigned', { users: [`${memberName.first_name} ${memberName.last_name}`], teams: [] }],
    ]);
    const bells = await notificationsOf(userIds['both@acme.test'], r.id);
    expect(bells.map((b) => b.title)).toEqual([`New request ${r.reference}: Reassigned`]);
    expect(bells[0].body).toMatch(/ asked for evidence, due 7\/4\/2031$/);
    expectFields(await patch(r.id, { assigneeIds: [userIds['admin@demo.test']] }), 400, 'validation_failed', [
      'assigneeIds',
    ]);
  });

  it('a new project clears the task and control unless the edit names ones of that project', async () => {
    const task = await insertTask(t, projectId);
    const control = await insertControl(t, projectId, 'PC.1');
    const r = await createRequest({ title: 'Moving', projectId, taskId: task, controlId: control });
    const moved = await patch(r.id, { projectId: otherProjectId });
    expect(moved.json()).toMatchObject({ project: { id: otherProjectId }, task: null, control: null });
    const otherTask = await insertTask(t, otherProjectId);
    expect((await patch(r.id, { projectId, taskId: otherTask })).json().details[0].field).toBe('taskId');
    const back = await patch(r.id, { projectId, taskId: task, controlId: control });
    expect(back.json()).toMatchObject({ project: { id: projectId }, task: { id: task }, control: { id: control } });
    expect((await patch(r.id, { controlId: null })).json()).toMatchObject({ task: { id: task }, control: null });
    expect((await patch(r.id, { projectId: null })).json()).toMatchObject({ project: null, task: null, control: null });
    expect((await history(r.id)).filter((e) => e.type === 'updated').map((e) => e.detail.fields)).toEqual([
      ['projectId', 'taskId', 'controlId'],
      ['projectId', 'taskId', 'controlId'],
      ['controlId'],
      ['projectId', 'taskId'],
    ]);
  });

  it('an edit of the internal note alone leaves updatedAt as clients saw it', async () => {
    const r = await createRequest({ title: 'Quietly noted', assigneeIds: [userIds['member@acme.test']] });
    const earlier = '2030-01-02T03:04:05.000Z';
    const setUpdatedAt = () =>
      t.database.db.updateTable('requests').set({ updated_at: earlier }).where('id', '=', r.id).execute();
    await setUpdatedAt();
    expect((await patch(r.id, { internalNote: 'Staff only' })).json()).toMatchObject({
      internalNote: 'Staff only',
      updatedAt: earlier,
    });
    expect((await getRequest(r.id, member())).updatedAt).toBe(earlier);
    // Anything a client sees moves it: a field, or the assignees along with the note.
    expect((await patch(r.id, { internalNote: 'Again', priority: 'high' })).json().updatedAt).not.toBe(earlier);
    await setUpdatedAt();
    expect((await patch(r.id, { internalNote: 'Once more', teamIds: [memberTeamId] })).json().updatedAt).not.toBe(
      earlier,
    );
  });
});

describe('GET /api/v1/requests/:id', () => {
  it('lists the evidence files oldest first, then by name, then by id', async () => {
    const r = await createRequest({ title: 'Ordered files' });
    const at = (s: number) => `2030-05-06T07:08:${String(s).padStart(2, '0')}.000Z`;
    const files = [
      { name: 'b.pdf', created_at: at(1) },
      { name: 'c.pdf', created_at: at(0) },
      { name: 'a.pdf', created_at: at(1) },
      { name: 'a.pdf', created_at: at(1) },
    ].map((f) => ({ ...f, id: randomUUID() }));
    await t.database.db
      .insertInto('request_files')
      .values(
        files.map((f) => ({
          ...f,
          request_id: r.id,
          company_id: acmeId,
          content_type: 'application/pdf',
          size: 10,
          sha256: 'b'.repeat(64),
          storage_key: `test/${f.id}`,
          uploaded_by: userIds['member@acme.test'],
        })),
      )
      .execute();
    const twins = files
      .filter((f) => f.name === 'a.pdf')
      .map((f) => f.id)
      .sort();
    const listed = (await getRequest(r.id)).files;
    expect(listed.map((f) => f.name)).toEqual(['c.pdf', 'a.pdf', 'a.pdf', 'b.pdf']);
    expect(listed.filter((f) => f.name === 'a.pdf').map((f) => f.id)).toEqual(twins);
  });
});

describe('POST /api/v1/companies/:id/requests/bulk', () => {
  it('applies a status change to all or to none', async () => {
    const open = await createRequest({ title: 'Bulk open' });
    const submitted = await createRequest({ title: 'Bulk submitted', assigneeIds: [userIds['member@acme.test']] });
    await insertEvidence(submitted.id);
    await transition(submitted.id, { action: 'submit' }, member());
    const refused = await bulk({ action: 'status', transition: 'accept', requestIds: [open.id, submitted.id] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'invalid_status_transition',
      details: [{ field: 'requestIds', message: `${open.reference} is open: it cannot be accepted` }],
    });
    expect(await statusOf(submitted.id)).toBe('submitted');

    const canceled = await bulk({
      action: 'status',
      transition: 'cancel',
      requestIds: [open.id, submitted.id, open.id],
    });
    expect(canceled.json()).toEqual({ updated: 2 });
    expect([await statusOf(open.id), await statusOf(submitted.id)]).toEqual(['canceled', 'canceled']);
    expect((await history(submitted.id)).at(-1)).toMatchObject({
      type: 'status',
      detail: { from: 'submitted', to: 'canceled', action: 'cancel' },
    });
    expect((await notificationsOf(userIds['member@acme.test'], submitted.id)).at(-1)?.title).toBe(
      `${submitted.reference} Canceled: Bulk submitted`,
    );
    const twice = await bulk({ action: 'status', transition: 'cancel', requestIds: [open.id] });
    expect(twice.json().details[0].message).toBe(`${open.reference} is canceled: it cannot be canceled`);
  });

  it('assigns (add or replace) and sets due dates; unknown or foreign ids change nothing', async () => {
    const a = await createRequest({ title: 'Bulk A', assigneeIds: [userIds['both@acme.test']] });
    const b = await createRequest({ title: 'Bulk B' });
    const added = await bulk({
      action: 'assign',
      requestIds: [a.id, b.id],
      assigneeIds: [userIds['member@acme.test']],
    });
    expect(added.json()).toEqual({ updated: 2 });
    expect((await getRequest(a.id)).assignees.map((u) => u.id).sort()).toEqual(
      [userIds['both@acme.test'], userIds['member@acme.test']].sort(),
    );
    expect((await notificationsOf(userIds['member@acme.test'], b.id)).map((n) => n.title)).toEqual([
      `New request ${b.reference}: Bulk B`,
    ]);
    // Already there: nothing changes.
    expect(
      (await bulk({ action: 'assign', requestIds: [a.id], assigneeIds: [userIds['member@acme.test']] })).json(),
    ).toEqual({ updated: 0 });

    const replaced = await bulk({ action: 'assign', mode: 'replace', requestIds: [a.id], teamIds: [memberTeamId] });
    expect(replaced.json()).toEqual({ updated: 1 });
    expect(await getRequest(a.id)).toMatchObject({ assignees: [], teams: [{ id: memberTeamId }] });
    expect((await history(a.id)).at(-1)?.type).toBe('unassigned');

    expect((await bulk({ action: 'dueDate', requestIds: [a.id, b.id], dueDate: '2033-05-01' })).json()).toEqual({
      updated: 2,
    });
    expect((await getRequest(b.id)).dueDate).toBe('2033-05-01');
    const audited = await t.database.db
      .selectFrom('audit_log')
      .select(['target_id', 'actor_id', 'before', 'after'])
      .where('action', '=', 'request.update')
      .where('target_id', 'in', [a.id, b.id])
      .where('after', 'like', '%2033-05-01%')
      .execute();
    expect(
      audited
        .map((row) => ({ ...row, before: JSON.parse(row.before!), after: JSON.parse(row.after!) }))
        .sort((x, y) => (x.target_id! < y.target_id! ? -1 : 1)),
    ).toEqual(
      [a, b]
        .map((r) => ({
          target_id: r.id,
          actor_id: userIds['consultant@demo.test'],
          before: { dueDate: null },
          after: { dueDate: '2033-05-01' },
        }))
        .sort((x, y) => (x.target_id < y.target_id ? -1 : 1)),
    );
    expect((await history(b.id)).at(-1)).toMatchObject({ type: 'updated', detail: { fields: ['dueDate'] } });

    const elsewhere = await newCompany(t, `Bulk elsewhere ${randomUUID().slice(0, 6)}`);
    const foreign = await createRequest({ title: 'Foreign' }, consultant(), elsewhere);
    for (const stranger of [foreign.id, 'no-such-request']) {
      const res = await bulk({ action: 'dueDate', requestIds: [a.id, stranger], dueDate: null });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'request_not_found' });
    }
    expect((await getRequest(a.id)).dueDate).toBe('2033-05-01');
    expect((await bulk({ action: 'dueDate', requestIds: [a.id], dueDate: null }, member())).statusCode).toBe(403);
    expectFields(
      await bulk({ action: 'assign', requestIds: [a.id], assigneeIds: [userIds['consultant@demo.test']] }),
      400,
      'validation_failed',
      ['assigneeIds'],
    );
    expectFields(await bulk({ action: 'status', transition: 'submit', requestIds: [a.id] }), 400, 'validation_failed', [
      'transition',
    ]);
    expectFields(await bulk({ action: 'dueDate', requestIds: [], dueDate: null }), 400, 'validation_failed', [
      'requestIds',
    ]);
    expectFields(await bulk({ action: 'rename', requestIds: [a.id] }), 400, 'validation_failed', ['action']);
  });
});

describe('GET /api/v1/companies/:id/requests: filters, sorting, paging', () => {
  let company: string;
  let x: { id: string; email: string };
  let y: { id: string; email: string };
  let team: string;
  let project: string;
  const refs: Record<string, RequestDetail> = {};

  beforeAll(async () => {
    company = await newCompany(t, `Requests list ${randomUUID().slice(0, 6)}`);
    x = await newUser(t, { companyIds: [company], firstName: 'Xena' });
    y = await newUser(t, { companyIds: [company], firstName: 'Yuri' });
    team = await insertTeam(t.database.db, company, 'Ops');
    await addTeamMember(t.database.db, team, y.id);
    project = await newActiveProject(t, company, 'List project');
    const create = (payload: Record<string, unknown>, cookie = consultant()) => createRequest(payload, cookie, company);
    refs.a = await create({ title: 'Alpha FIREWALL rules', priority: 'high', dueDate: day(-2), assigneeIds: [x.id] });
    refs.b = await create({ title: 'Bravo backups', priority: 'low', dueDate: day(5), teamIds: [team] });
    refs.c = await create({
      title: 'Charlie access review',
      description: 'Quarterly 100% review',
      priority: 'critical',
      projectId: project,
    });
    refs.d = await create({ title: 'Delta vendors', priority: 'medium', dueDate: day(-1), assigneeIds: [x.id] });
    await transition(refs.d.id, { action: 'cancel' });
    refs.e = await create(
      { title: 'Echo policies', priority: 'medium', assigneeIds: [y.id] },
      cookies['admin@demo.test'],
    );
  });

  const titles = async (query: string, cookie = consultant()) =>
    (await list(query, cookie, company)).results.map((r) => r.title.split(' ')[0]);

  it('filters by status, priority, assignee, team, requester, project, overdue and search', async () => {
    expect((await titles('sort=reference')).length).toBe(5);
    expect(await titles('sort=reference&status=canceled')).toEqual(['Delta']);
    expect(await titles('sort=reference&status=open&status=canceled&priority=medium')).toEqual(['Delta', 'Echo']);
    expect(await titles(`sort=reference&priority[]=low&priority[]=critical`)).toEqual(['Bravo', 'Charlie']);
    expect(await titles(`sort=reference&assigneeId=${x.id}`)).toEqual(['Alpha', 'Delta']);
    expect(await titles(`sort=reference&assigneeId=${y.id}`)).toEqual(['Bravo', 'Echo']);
    expect(await titles('sort=reference&assigneeId=none')).toEqual(['Charlie']);
    expect(await titles('sort=reference&assigneeId=me', await t.cookieFor(y.email))).toEqual(['Bravo', 'Echo']);
    expect(await titles(`sort=reference&teamId=${team}`)).toEqual(['Bravo']);
    expect(await titles('sort=reference&requesterId=me')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect(await titles(`sort=reference&requesterId=${userIds['admin@demo.test']}`)).toEqual(['Echo']);
    expect(await titles(`sort=reference&projectId=${project}`)).toEqual(['Charlie']);
    expect(await titles('sort=reference&overdue=true')).toEqual(['Alpha']);
    expect(await titles('sort=reference&overdue=false')).toHaveLength(5);
    expect(await titles('search=firewall')).toEqual(['Alpha']);
    expect(await titles(`search=${refs.b.reference.toLowerCase()}`)).toEqual(['Bravo']);
    expect(await titles('search=quarterly')).toEqual(['Charlie']);
    expect(await titles('search=100%25')).toEqual(['Charlie']);
    expect(await titles('search=_')).toEqual([]);
  });

  it('a client sees only their own within the filters', async () => {
    expect(await titles('sort=reference', await t.cookieFor(x.email))).toEqual(['Alpha', 'Delta']);
    expect(await titles('sort=reference&overdue=true', await t.cookieFor(x.email))).toEqual(['Alpha']);
  });

  it('sorts, due dates without a date last either way, and pages', async () => {
    expect(await titles('sort=dueDate')).toEqual(['Alpha', 'Delta', 'Bravo', 'Charlie', 'Echo']);
    expect(await titles('sort=-dueDate')).toEqual(['Bravo', 'Delta', 'Alpha', 'Charlie', 'Echo']);
    expect(await titles('sort=priority')).toEqual(['Bravo', 'Delta', 'Echo', 'Alpha', 'Charlie']);
    expect(await titles('sort=-priority')).toEqual(['Charlie', 'Alpha', 'Delta', 'Echo', 'Bravo']);
    expect(await titles('sort=status')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Echo', 'Delta']);
    expect(await titles('sort=-title')).toEqual(['Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    expect(await titles('sort=-reference')).toEqual(['Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    expect(await titles('sort=createdAt')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(await titles('sort=-updatedAt')).toEqual(['Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    const page = await list('sort=reference&pageSize=2&page=2', consultant(), company);
    expect({
      total: page.total,
      page: page.page,
      pageSize: page.pageSize,
      titles: page.results.map((r) => r.title.split(' ')[0]),
    }).toEqual({
      total: 5,
      page: 2,
      pageSize: 2,
      titles: ['Charlie', 'Delta'],
    });
    expect((await list('page=9', consultant(), company)).results).toEqual([]);
  });

  it('sorts references by their number (REQ-10000 after REQ-9999), references without one last either way', async () => {
    const numbered = await newCompany(t, `Requests numbers ${randomUUID().slice(0, 6)}`);
    const base = {
      companyId: numbered,
      projectId: null,
      taskId: null,
      controlId: null,
      description: null,
      internalNote: null,
      priority: 'medium' as const,
      dueDate: null,
      requesterId: null,
      createdBy: null,
      assigneeIds: [],
      teamIds: [],
    };
    for (const [reference, number] of [
      ['REQ-9999', 9999],
      ['LEGACY-1', null],
      ['REQ-0002', 2],
      ['AAA-1', null],
    ] as const) {
      await insertRequest(t.database.db, { ...base, id: randomUUID(), reference, number, title: reference });
    }
    // Numbered after the highest: REQ-10000.
    const created = await createRequest({ title: 'Next' }, consultant(), numbered);
    expect(created.reference).toBe('REQ-10000');
    const references = async (sort: string) =>
      (await list(`sort=${sort}`, consultant(), numbered)).results.map((r) => r.reference);
    expect(await references('reference')).toEqual(['REQ-0002', 'REQ-9999', 'REQ-10000', 'AAA-1', 'LEGACY-1']);
    expect(await references('-reference')).toEqual(['REQ-10000', 'REQ-9999', 'REQ-0002', 'LEGACY-1', 'AAA-1']);
    // Ties of another sort go by reference ascending.
    expect(await references('priority')).toEqual(['REQ-0002', 'REQ-9999', 'REQ-10000', 'AAA-1', 'LEGACY-1']);
  });

  it('answers summaries as the contract says, not cached', async () => {
    const res = await t.api({
      method: 'GET',
      url: `${listUrl(company)}?sort=reference&pageSize=1`,
      cookie: consultant(),
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const [alpha] = (res.json() as RequestList).results;
    expect(alpha).toEqual({
      id: refs.a.id,
      companyId: company,
      reference: refs.a.reference,
      title: 'Alpha FIREWALL rules',
      status: 'open',
      priority: 'high',
      dueDate: day(-2),
      overdue: true,
      project: null,
      requester: expect.objectContaining({ id: userIds['consultant@demo.test'], isTevora: true }),
      assignees: [{ id: x.id, firstName: 'Xena', lastName: 'Tester', email: x.email, isTevora: false }],
      teams: [],
      fileCount: 0,
      commentCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(alpha).not.toHaveProperty('internalNote');
  });

  it('refuses bad query parameters naming them', async () => {
    for (const [query, field] of [
      ['status=closed', 'status'],
      ['priority=urgent', 'priority'],
      ['sort=due', 'sort'],
      ['overdue=yes', 'overdue'],
      ['pageSize=500', 'pageSize'],
      ['page=0', 'page'],
      ['search=a%00b', 'search'],
    ]) {
      const res = await t.api({ method: 'GET', url: `${listUrl(company)}?${query}`, cookie: consultant() });
      expect({
        query,
        status: res.statusCode,
        fields: (res.json().details ?? []).map((d: { field: string }) => d.field),
      }).toEqual({ query, status: 400, fields: [field] });
    }
  });

  it('lists the assignee, requester and project options', async () => {
    const res = await t.api({ method: 'GET', url: `${listUrl(company)}/assignees`, cookie: consultant() });
    const options = res.json() as RequestAssigneeOptions;
    expect(options.users.map((u) => u.id)).toEqual([x.id, y.id]);
    expect(options.teams).toEqual([{ id: team, name: 'Ops' }]);
    expect(options.requesters.map((u) => u.id).sort()).toEqual(
      [userIds['admin@demo.test'], userIds['consultant@demo.test']].sort(),
    );
    expect(options.projects).toEqual([{ id: project, title: expect.stringMatching(/^List project/) }]);
  });
});

describe('history and internal notes for clients', () => {
  it('never sends clients the internal note or internal entries', async () => {
    const r = await createRequest({
      title: 'Secretive',
      internalNote: 'Staff only remark',
      assigneeIds: [userIds['member@acme.test']],
    });
    await t.database.db
      .insertInto('request_events')
      .values({
        id: randomUUID(),
        request_id: r.id,
        actor_id: userIds['consultant@demo.test'],
        type: 'comment',
        detail: JSON.stringify({ internal: true }),
        internal: true,
        created_at: nowIso(),
      })
      .execute();
    const staff = await history(r.id);
    expect(staff.map((e) => e.type)).toEqual(['created', 'assigned', 'comment']);
    const client = await history(r.id, member());
    expect(client.map((e) => e.type)).toEqual(['created', 'assigned']);
    const detail = await t.api({ method: 'GET', url: requestUrl(r.id), cookie: member() });
    expect(detail.body).not.toContain('Staff only remark');
    const page = await t.api({ method: 'GET', url: `${listUrl()}?search=Secretive`, cookie: member() });
    expect(page.body).not.toContain('Staff only remark');
    expect((await getRequest(r.id, lead())).internalNote).toBeNull();
    expect((await getRequest(r.id, cookies['admin@demo.test'])).internalNote).toBe('Staff only remark');
  });
});
