/**
 * The requests report (issue 9, helper B; contract shared/src/core/reports): every figure equals what
 * this file counts from the rows of a company of its own, for each filter and each way of seeing
 * requests; the `return` transition feeds the returned figures; the demo seed's return counts.
 */
import type { RequestsReport } from '@portal/shared/core/reports';
import { ACCEPT_TIME_BUCKETS, REQUEST_AGE_BUCKETS, oneDecimal } from '@portal/shared/core/reports';
import { REQUEST_ACTIVE_STATUSES, REQUEST_STATUSES, type RequestStatus } from '@portal/shared/core/requests';
import { addCompanyMember, setCompanyModulesAccess } from '../../../../db/companies';
import { setUserModuleAccess } from '../../../../db/module-access';
import { addDays } from '../../../../db/reports/scope';
import { toIso } from '../../../../db/values';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId as companyIdOf } from '../../../../test/identity';
import { day as dayFromNow, newActiveProject, newCompany, newUser } from '../../../../test/project-fixtures';
import { insertTestRequest, newTeam, person, type Person } from '../../../../test/evidence-fixtures';

const DAY = 86_400_000;

/**
 * The day the file runs on, fixed when it starts: every report call names it (`today=`), so the figures
 * do not move when the run crosses UTC midnight.
 */
const TODAY = dayFromNow(0);
const day = (offset = 0) => addDays(TODAY, offset);
const withToday = (query: string) =>
  /(^|&)today=/.test(query) ? query : [query, `today=${TODAY}`].filter(Boolean).join('&');

let t: TestApp;
let companyId: string;
let projectA: string;
let projectB: string;
let consultant: string;
/** Client users of the company: Ada and Bob are assignees only; Cora (member) sees her own requests; Dee is the company's admin. */
let ada: Person;
let bob: Person;
let cora: Person;
let dee: Person;
/** Staff auditor holding a role on project A only. */
let auditor: Person;
let coraTeam: string;

type Figures = Omit<RequestsReport, 'kind' | 'meta'>;

/** A request of the test's company written straight to the tables. Days are offsets from today (UTC). */
interface Seed {
  status: RequestStatus;
  /** ISO instant */
  created: string;
  accepted?: string;
  due?: number | null;
  returns?: number;
  project?: 'A' | 'B' | null;
  assignees?: Person[];
  teams?: string[];
}

const at = (offset: number, time = '10:00:00.000') => `${day(offset)}T${time}Z`;

async function insertSeed(company: string, seed: Seed): Promise<string> {
  const projects = { A: projectA, B: projectB };
  const request = await insertTestRequest(t, {
    companyId: company,
    status: seed.status,
    dueDate: seed.due === undefined || seed.due === null ? null : day(seed.due),
    projectId: seed.project ? projects[seed.project] : null,
    assigneeIds: (seed.assignees ?? []).map((p) => p.id),
    teamIds: seed.teams ?? [],
  });
  await t.database.db
    .updateTable('requests')
    .set({
      created_at: seed.created,
      updated_at: seed.created,
      accepted_at: seed.accepted ?? null,
      return_count: seed.returns ?? 0,
    })
    .where('id', '=', request.id)
    .execute();
  return request.id;
}

/**
 * The company's requests. Ages 0, 7 | 8, 30 | 31, 90 | 91 and acceptance after exactly 1 and 7 days sit on
 * the bucket edges (midnights: exact on both dialects); #2/#10 and #4/#15 on the edges of the period
 * day(-31)..day(-8).
 */
function seeds(): Seed[] {
  return [
    /* 1 */ { status: 'open', created: at(-7), due: -1, project: 'A', assignees: [ada] },
    /* 2 */ { status: 'open', created: at(-8, '23:59:59.999'), due: 3, project: 'A', assignees: [ada, bob] },
    /* 3 */ { status: 'returned', returns: 1, created: at(-30), due: -5, project: 'B', assignees: [bob] },
    /* 4 */ { status: 'submitted', created: at(-31, '00:00:00.000'), due: null, project: 'B' },
    /* 5 */ { status: 'submitted', returns: 2, created: at(-91), due: -40, project: null, assignees: [ada] },
    /* 6 */ {
      status: 'accepted',
      created: at(-40, '00:00:00.000'),
      accepted: at(-39, '00:00:00.000'),
      project: 'A',
      assignees: [ada],
    },
    /* 7 */ {
      status: 'accepted',
      returns: 1,
      created: at(-20, '00:00:00.000'),
      accepted: at(-13, '00:00:00.000'),
      project: 'B',
      assignees: [bob],
    },
    /* 8 */ { status: 'accepted', created: at(-100), accepted: at(-85), project: null },
    /* 9 */ { status: 'accepted', created: at(-200), accepted: at(-150), project: 'A', assignees: [cora] },
    /* 10 */ { status: 'canceled', created: at(-7, '00:00:00.000'), due: -3, project: 'A', assignees: [bob] },
    /* 11 */ { status: 'open', created: at(-90), due: 0, project: 'B', assignees: [cora] },
    /* 12 */ { status: 'open', created: at(0, '00:00:00.000'), due: null, project: null, teams: [coraTeam] },
    /* 13 */ { status: 'accepted', created: at(-3), accepted: at(-3, '22:00:00.000'), project: 'A', assignees: [ada] },
    /* 14 */ { status: 'submitted', created: at(-60), due: -1, project: 'B', assignees: [ada] },
    /* 15 */ { status: 'open', created: at(-32, '23:59:59.999'), project: 'B', assignees: [bob] },
  ];
}

beforeAll(async () => {
  t = await createTestApp();
  companyId = await newCompany(t, 'Reports requests test co');
  consultant = await t.cookieFor('consultant@demo.test');
  ada = await person(t, { companyIds: [companyId], firstName: 'Ada' });
  bob = await person(t, { companyIds: [companyId], firstName: 'Bob' });
  cora = await person(t, { companyIds: [companyId], firstName: 'Cora' });
  dee = await person(t, { firstName: 'Dee' });
  await addCompanyMember(t.database.db, companyId, dee.id, 'admin');
  auditor = await person(t, { isTevora: true, isAuditor: true });
  projectA = await newActiveProject(t, companyId, 'Reports A', [[auditor.id, 'Consultant']]);
  projectB = await newActiveProject(t, companyId, 'Reports B');
  coraTeam = await newTeam(t, companyId, [cora.id]);
  for (const seed of seeds()) await insertSeed(companyId, seed);
});
afterAll(() => t.close());

const reportUrl = (company: string, query = '') =>
  `/api/v1/companies/${company}/reports/requests${query ? `?${query}` : ''}`;

async function report(query = '', cookie = consultant, company = companyId): Promise<RequestsReport> {
  const res = await t.api({ method: 'GET', url: reportUrl(company, withToday(query)), cookie });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 200, body: { kind: 'requests' } });
  return res.json() as RequestsReport;
}

const figuresOf = ({ kind: _kind, meta: _meta, ...figures }: RequestsReport): Figures => figures;

interface RawRequest {
  projectId: string | null;
  status: RequestStatus;
  dueDate: string | null;
  createdAt: string;
  acceptedAt: string | null;
  returnCount: number;
  assigneeIds: string[];
  teamIds: string[];
}

/** The company's requests as stored, with their direct assignees and teams. */
async function rawRequests(company: string): Promise<RawRequest[]> {
  const db = t.database.db;
  const rows = await db
    .selectFrom('requests')
    .select(['id', 'project_id', 'status', 'due_date', 'created_at', 'accepted_at', 'return_count'])
    .where('company_id', '=', company)
    .execute();
  const assignees = await db.selectFrom('request_assignees').select(['request_id', 'user_id']).execute();
  const teams = await db.selectFrom('request_teams').select(['request_id', 'team_id']).execute();
  return rows.map((r) => ({
    projectId: r.project_id,
    status: r.status,
    dueDate: r.due_date,
    createdAt: toIso(r.created_at),
    acceptedAt: r.accepted_at === null ? null : toIso(r.accepted_at),
    returnCount: Number(r.return_count),
    assigneeIds: assignees.filter((a) => a.request_id === r.id).map((a) => a.user_id),
    teamIds: teams.filter((a) => a.request_id === r.id).map((a) => a.team_id),
  }));
}

/** "First Last" of every user and "<name> (team)" of every team, by id. */
async function namesById(): Promise<Map<string, string>> {
  const users = await t.database.db.selectFrom('users').select(['id', 'first_name', 'last_name']).execute();
  const teams = await t.database.db.selectFrom('teams').select(['id', 'name']).execute();
  return new Map([
    ...users.map((u): [string, string] => [u.id, `${u.first_name} ${u.last_name}`]),
    ...teams.map((x): [string, string] => [x.id, `${x.name} (team)`]),
  ]);
}

/** The report's figures counted here, one request at a time, from the contract's definitions. */
function expectedFigures(
  all: RawRequest[],
  names: Map<string, string>,
  filters: { today: string; from?: string; to?: string; projectId?: string; sees?: (r: RawRequest) => boolean },
): Figures {
  const { today } = filters;
  const requests = all.filter((r) => {
    const created = r.createdAt.slice(0, 10);
    return (
      (!filters.from || created >= filters.from) &&
      (!filters.to || created <= filters.to) &&
      (!filters.projectId || r.projectId === filters.projectId) &&
      (!filters.sees || filters.sees(r))
    );
  });
  const active = (r: RawRequest) => REQUEST_ACTIVE_STATUSES.includes(r.status);
  const overdue = (r: RawRequest) => active(r) && r.dueDate !== null && r.dueDate < today;
  const accepted = (r: RawRequest) => r.status === 'accepted';
  const returned = (r: RawRequest) => r.returnCount > 0;
  const daysToAccept = (r: RawRequest) => (Date.parse(r.acceptedAt!) - Date.parse(r.createdAt)) / DAY;
  const age = (r: RawRequest) => (Date.parse(today) - Date.parse(r.createdAt.slice(0, 10))) / DAY;
  const count = (rows: RawRequest[], test: (r: RawRequest) => boolean) => rows.filter(test).length;
  const bucketOf = <K extends string>(value: number, buckets: readonly { key: K; max: number | null }[]) =>
    buckets.find((b) => b.max === null || value <= b.max)!.key;

  const acceptedOnes = requests.filter(accepted);
  const reviewed = count(requests, (r) => accepted(r) || returned(r));
  const returnedCount = count(requests, returned);
  const personFigures = (rows: RawRequest[]) => ({
    active: count(rows, active),
    overdue: count(rows, overdue),
    submitted: count(rows, (r) => r.status === 'submitted'),
    accepted: count(rows, accepted),
    returned: count(rows, returned),
  });
  const assigneeIds = [...new Set(requests.flatMap((r) => r.assigneeIds))];
  const teamIds = [...new Set(requests.flatMap((r) => r.teamIds))];
  const unassigned = requests.filter((r) => r.assigneeIds.length === 0 && r.teamIds.length === 0);
  return {
    totals: {
      requests: requests.length,
      active: count(requests, active),
      overdue: count(requests, overdue),
      accepted: acceptedOnes.length,
      reviewed,
      returned: returnedCount,
      returnedRate: reviewed ? returnedCount / reviewed : null,
      averageDaysToAccept: acceptedOnes.length
        ? oneDecimal(acceptedOnes.reduce((sum, r) => sum + daysToAccept(r), 0) / acceptedOnes.length)
        : null,
    },
    byStatus: REQUEST_STATUSES.map((status) => ({ status, count: count(requests, (r) => r.status === status) })),
    openByAge: REQUEST_AGE_BUCKETS.map(({ key }) => ({
      bucket: key,
      count: count(requests, (r) => active(r) && bucketOf(age(r), REQUEST_AGE_BUCKETS) === key),
    })),
    timeToAccept: ACCEPT_TIME_BUCKETS.map(({ key }) => ({
      bucket: key,
      count: count(acceptedOnes, (r) => bucketOf(daysToAccept(r), ACCEPT_TIME_BUCKETS) === key),
    })),
    byAssignee: [
      ...assigneeIds
        .map((userId) => ({
          userId: userId as string | null,
          teamId: null as string | null,
          name: names.get(userId)!,
          ...personFigures(requests.filter((r) => r.assigneeIds.includes(userId))),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      ...teamIds
        .map((teamId) => ({
          userId: null,
          teamId: teamId as string | null,
          name: names.get(teamId)!,
          ...personFigures(requests.filter((r) => r.teamIds.includes(teamId))),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      ...(unassigned.length ? [{ userId: null, teamId: null, name: 'Unassigned', ...personFigures(unassigned) }] : []),
    ],
  };
}

describe('the requests report', () => {
  it('counts every figure of the company over all time, with the bucket edges where the contract puts them', async () => {
    const answer = await report();
    expect(answer.meta).toMatchObject({
      company: { id: companyId },
      project: null,
      from: null,
      to: null,
      today: day(0),
    });
    expect(figuresOf(answer)).toEqual(
      expectedFigures(await rawRequests(companyId), await namesById(), { today: day(0) }),
    );
    // The same figures written out by hand from the fifteen requests above.
    expect(answer.totals).toEqual({
      requests: 15,
      active: 9,
      overdue: 4,
      accepted: 5,
      reviewed: 7,
      returned: 3,
      returnedRate: 3 / 7,
      averageDaysToAccept: 14.7,
    });
    expect(answer.byStatus.map((s) => s.count)).toEqual([5, 3, 1, 5, 1]);
    expect(answer.openByAge).toEqual([
      { bucket: 'week', count: 2 },
      { bucket: 'month', count: 2 },
      { bucket: 'quarter', count: 4 },
      { bucket: 'older', count: 1 },
    ]);
    expect(answer.timeToAccept).toEqual([
      { bucket: 'day', count: 2 },
      { bucket: 'week', count: 1 },
      { bucket: 'month', count: 1 },
      { bucket: 'longer', count: 1 },
    ]);
    // A request of two assignees counts for both; then the teams (request 12 is assigned to Cora's team
    // only: it is not Unassigned); Unassigned last; names "First Last".
    const coraTeamName = (
      await t.database.db.selectFrom('teams').select('name').where('id', '=', coraTeam).executeTakeFirstOrThrow()
    ).name;
    expect(answer.byAssignee).toEqual([
      {
        userId: ada.id,
        teamId: null,
        name: 'Ada Tester',
        active: 4,
        overdue: 3,
        submitted: 2,
        accepted: 2,
        returned: 1,
      },
      {
        userId: bob.id,
        teamId: null,
        name: 'Bob Tester',
        active: 3,
        overdue: 1,
        submitted: 0,
        accepted: 1,
        returned: 2,
      },
      {
        userId: cora.id,
        teamId: null,
        name: 'Cora Tester',
        active: 1,
        overdue: 0,
        submitted: 0,
        accepted: 1,
        returned: 0,
      },
      {
        userId: null,
        teamId: coraTeam,
        name: `${coraTeamName} (team)`,
        active: 1,
        overdue: 0,
        submitted: 0,
        accepted: 0,
        returned: 0,
      },
      { userId: null, teamId: null, name: 'Unassigned', active: 1, overdue: 0, submitted: 1, accepted: 1, returned: 0 },
    ]);
  });

  it('counts the requests created in the period, both days included (UTC)', async () => {
    const from = day(-31);
    const to = day(-8);
    const answer = await report(`from=${from}&to=${to}`);
    expect(answer.meta).toMatchObject({ from, to });
    expect(figuresOf(answer)).toEqual(
      expectedFigures(await rawRequests(companyId), await namesById(), { today: day(0), from, to }),
    );
    // #2 (23:59:59.999 on `to`), #3, #4 (midnight of `from`) and #7; not #10 (the midnight after `to`) nor #15.
    expect(answer.totals.requests).toBe(4);
    const openOnly = await report(`from=${day(-7)}`);
    expect(openOnly.totals.requests).toBe(4);
  });

  it('counts one project’s requests when one is chosen', async () => {
    const raw = await rawRequests(companyId);
    const names = await namesById();
    for (const projectId of [projectA, projectB]) {
      const answer = await report(`projectId=${projectId}`);
      expect(answer.meta.project).toMatchObject({ id: projectId });
      expect(figuresOf(answer)).toEqual(expectedFigures(raw, names, { today: day(0), projectId }));
    }
    expect((await report(`projectId=${projectA}`)).totals.requests).toBe(6);
  });

  it('measures overdue and age against the caller’s today', async () => {
    const today = day(1);
    const answer = await report(`today=${today}`);
    expect(figuresOf(answer)).toEqual(expectedFigures(await rawRequests(companyId), await namesById(), { today }));
    // #11, due on the server's day, is overdue a day later; #1 (7 days old) is 8 and leaves the first week.
    expect(answer.totals.overdue).toBe(5);
    expect(answer.openByAge.find((b) => b.bucket === 'week')?.count).toBe(1);
  });

  it('counts only the requests the caller sees: a client their own, an auditor their projects’, a client admin all', async () => {
    const raw = await rawRequests(companyId);
    const names = await namesById();
    const today = day(0);

    const mine = await report('', cora.cookie);
    const coraSees = (r: RawRequest) => r.assigneeIds.includes(cora.id) || r.teamIds.includes(coraTeam);
    expect(figuresOf(mine)).toEqual(expectedFigures(raw, names, { today, sees: coraSees }));
    expect(mine.totals.requests).toBe(3);

    const audited = await report('', auditor.cookie);
    expect(figuresOf(audited)).toEqual(expectedFigures(raw, names, { today, sees: (r) => r.projectId === projectA }));
    expect(audited.totals.requests).toBe(6);
    // Not one of the auditor's projects: as if it did not exist.
    const elsewhere = await t.api({
      method: 'GET',
      url: reportUrl(companyId, `projectId=${projectB}`),
      cookie: auditor.cookie,
    });
    expect({ status: elsewhere.statusCode, code: elsewhere.json().code }).toEqual({
      status: 404,
      code: 'project_not_found',
    });

    const admin = await report('', dee.cookie);
    expect(figuresOf(admin)).toEqual(expectedFigures(raw, names, { today }));
  });

  it('answers 404 for another company’s project and 403 when the requests or reports module is off', async () => {
    const acmeId = await companyIdOf(t, 'Acme Corp');
    const acmeProject = await newActiveProject(t, acmeId, 'Reports elsewhere');
    const other = await t.api({
      method: 'GET',
      url: reportUrl(companyId, `projectId=${acmeProject}`),
      cookie: consultant,
    });
    expect({ status: other.statusCode, code: other.json().code }).toEqual({ status: 404, code: 'project_not_found' });

    const eve = await person(t, { companyIds: [companyId], firstName: 'Eve' });
    await setUserModuleAccess(t.database.db, companyId, eve.id, 'requests', false);
    const refused = await t.api({ method: 'GET', url: reportUrl(companyId), cookie: eve.cookie });
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({
      status: 403,
      code: 'module_access_denied',
    });
    const options = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${companyId}/reports/options`,
      cookie: eve.cookie,
    });
    expect(options.json().kinds).not.toContain('requests');

    const closed = await newCompany(t, 'Reports requests off co');
    await setCompanyModulesAccess(t.database.db, closed, { requests: false });
    const noRequests = await t.api({ method: 'GET', url: reportUrl(closed), cookie: consultant });
    expect({ status: noRequests.statusCode, code: noRequests.json().code }).toEqual({
      status: 403,
      code: 'module_access_denied',
    });
    await setCompanyModulesAccess(t.database.db, closed, { requests: true, reports: false });
    const noReports = await t.api({ method: 'GET', url: reportUrl(closed), cookie: consultant });
    expect({ status: noReports.statusCode, code: noReports.json().code }).toEqual({
      status: 403,
      code: 'module_access_denied',
    });
  });

  it('a company without requests has zeros in every bucket and no rate nor average', async () => {
    const empty = await newCompany(t, 'Reports requests empty co');
    const answer = await report('', consultant, empty);
    expect(figuresOf(answer)).toEqual({
      totals: {
        requests: 0,
        active: 0,
        overdue: 0,
        accepted: 0,
        reviewed: 0,
        returned: 0,
        returnedRate: null,
        averageDaysToAccept: null,
      },
      byStatus: REQUEST_STATUSES.map((status) => ({ status, count: 0 })),
      openByAge: REQUEST_AGE_BUCKETS.map(({ key }) => ({ bucket: key, count: 0 })),
      timeToAccept: ACCEPT_TIME_BUCKETS.map(({ key }) => ({ bucket: key, count: 0 })),
      byAssignee: [],
    });
  });
});

describe('the returned figures', () => {
  it('a return through the api counts the request as returned and reviewed, once however often it goes back', async () => {
    const company = await newCompany(t, 'Reports returns co');
    const client = await newUser(t, { companyIds: [company], firstName: 'Rita' });
    await insertTestRequest(t, { companyId: company, status: 'accepted' });
    const submitted = await insertTestRequest(t, { companyId: company, status: 'submitted', assigneeIds: [client.id] });
    const before = await report('', consultant, company);
    expect(before.totals).toMatchObject({ requests: 2, reviewed: 1, returned: 0, returnedRate: 0 });

    const returnIt = () =>
      t.api({
        method: 'POST',
        url: `/api/v1/requests/${submitted.id}/transitions`,
        cookie: consultant,
        payload: { action: 'return', reason: 'Missing pages' },
      });
    expect((await returnIt()).statusCode).toBe(200);
    const after = await report('', consultant, company);
    expect(after.totals).toMatchObject({ reviewed: 2, returned: 1, returnedRate: 0.5 });
    expect(after.byStatus.find((s) => s.status === 'returned')?.count).toBe(1);
    expect(after.byAssignee).toEqual([
      {
        userId: client.id,
        teamId: null,
        name: 'Rita Tester',
        active: 1,
        overdue: 0,
        submitted: 0,
        accepted: 0,
        returned: 1,
      },
      expect.objectContaining({ userId: null }),
    ]);

    // Submitted again (the evidence rules are the requests module's) and returned a second time.
    await t.database.db.updateTable('requests').set({ status: 'submitted' }).where('id', '=', submitted.id).execute();
    expect((await returnIt()).statusCode).toBe(200);
    const stored = await t.database.db
      .selectFrom('requests')
      .select('return_count')
      .where('id', '=', submitted.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.return_count)).toBe(2);
    expect((await report('', consultant, company)).totals).toMatchObject({ reviewed: 2, returned: 1 });
  });

  it('the demo seed counts the returns its history shows', async () => {
    const acmeId = await companyIdOf(t, 'Acme Corp');
    const requests = await t.database.db
      .selectFrom('requests')
      .select(['id', 'return_count'])
      .where('company_id', '=', acmeId)
      .execute();
    const events = await t.database.db
      .selectFrom('request_events')
      .select(['request_id', 'detail'])
      .where('type', '=', 'status')
      .execute();
    const returnsOf = (id: string) =>
      events.filter((e) => e.request_id === id && (JSON.parse(e.detail) as { to: string }).to === 'returned').length;
    expect(requests.map((r) => [r.id, Number(r.return_count)])).toEqual(requests.map((r) => [r.id, returnsOf(r.id)]));
    expect(requests.filter((r) => Number(r.return_count) > 0).length).toBeGreaterThanOrEqual(2);
  });
});
