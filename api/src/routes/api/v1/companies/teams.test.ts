import { team as teamSchema, teamList } from '@portal/shared/core/companies/results';
import { assignedObjectListSchema, auditEntrySchema, type AuditEntry, type Team } from '@portal/shared/core/settings';
import { moduleAccessFor } from '../../../../db/module-access';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId, createUserWithPassword } from '../../../../test/identity';

let t: TestApp;
let acmeId: string;
let globexId: string;
let admin: string;
let lead: string;
const userIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  acmeId = await companyId(t, 'Acme Corp');
  globexId = await companyId(t, 'Globex Inc');
  admin = await t.cookieFor('admin@demo.test');
  lead = await t.cookieFor('lead@acme.test');
  for (const row of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    userIds[row.email] = row.id;
});
afterAll(() => t.close());

const teamsUrl = (company = acmeId) => `/api/v1/companies/${company}/teams`;

async function listTeams(cookie = lead, company = acmeId): Promise<Team[]> {
  const res = await t.api({ method: 'GET', url: teamsUrl(company), cookie });
  expect(res.statusCode).toBe(200);
  return teamList.parse(res.json()).results;
}

async function createTeam(name: string, cookie = lead): Promise<Team> {
  const res = await t.api({ method: 'POST', url: teamsUrl(), cookie, payload: { name } });
  expect(res.statusCode).toBe(201);
  return teamSchema.parse(res.json());
}

async function auditEntries(action: string): Promise<AuditEntry[]> {
  const res = await t.api({
    method: 'GET',
    url: `/api/v1/audit-log?action=${encodeURIComponent(action)}&pageSize=200`,
    cookie: admin,
  });
  expect(res.statusCode).toBe(200);
  return (res.json().results as unknown[]).map((e) => auditEntrySchema.parse(e)).filter((e) => e.action === action);
}

const teamCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('teams')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('GET /api/v1/companies/:id/teams', () => {
  it('lists the teams of the company by name, with members and module values, to any member', async () => {
    const teams = await listTeams(await t.cookieFor('member@acme.test'));
    expect(teams.map((team) => team.name)).toEqual(['Compliance Team', 'Internal Audit', 'Security Engineering']);
    const compliance = teams[0];
    expect(compliance).toMatchObject({
      companyId: acmeId,
      modulesAccess: { risks: true, projects: true, requests: null, reports: null, assets: null },
    });
    expect(compliance.users.map((u) => u.email)).toEqual(['both@acme.test', 'lead@acme.test', 'member@acme.test']);
    expect(Object.keys(compliance.users[0]).sort()).toEqual(['email', 'firstName', 'id', 'lastName']);
  });

  it('answers 404 to a user of another company and 401 without a session', async () => {
    const res = await t.api({ method: 'GET', url: teamsUrl(), cookie: await t.cookieFor('client@globex.test') });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('company_not_found');
    expect((await t.api({ method: 'GET', url: teamsUrl() })).statusCode).toBe(401);
  });
});

describe('POST and PATCH /api/v1/companies/:id/teams', () => {
  it('creates a team for the company admin, empty, and records it', async () => {
    const team = await createTeam('  Red Team ');
    expect(team).toMatchObject({ name: 'Red Team', companyId: acmeId, users: [] });
    expect(team.modulesAccess).toEqual({ risks: null, projects: null, requests: null, reports: null, assets: null });
    expect((await listTeams()).map((x) => x.name)).toContain('Red Team');
    const entry = (await auditEntries('team.create')).find((e) => e.targetId === team.id);
    expect(entry).toMatchObject({
      actor: { email: 'lead@acme.test' },
      companyId: acmeId,
      targetType: 'team',
      after: { name: 'Red Team' },
    });
  });

  it('refuses a name another team of the company has, in any case, with 409 naming name', async () => {
    const count = await teamCount();
    const res = await t.api({ method: 'POST', url: teamsUrl(), cookie: lead, payload: { name: 'compliance TEAM' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'team_name_taken',
      details: [{ field: 'name', message: expect.any(String) }],
    });
    expect(await teamCount()).toBe(count);
  });

  it('allows the same name in another company', async () => {
    const res = await t.api({
      method: 'POST',
      url: teamsUrl(globexId),
      cookie: admin,
      payload: { name: 'Compliance Team' },
    });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'n'.repeat(81) }, 'name'],
    [{ name: ['a'] }, 'name'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const count = await teamCount();
    const res = await t.api({ method: 'POST', url: teamsUrl(), cookie: lead, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    expect(await teamCount()).toBe(count);
  });

  it('renames a team, refuses a taken name, and records the change', async () => {
    const team = await createTeam('Blue Team');
    const url = `${teamsUrl()}/${team.id}`;
    const res = await t.api({ method: 'PATCH', url, cookie: lead, payload: { name: 'Purple Team' } });
    expect(res.statusCode).toBe(200);
    expect(teamSchema.parse(res.json())).toMatchObject({ id: team.id, name: 'Purple Team' });
    // its own name, in another case, is not "taken"
    expect((await t.api({ method: 'PATCH', url, cookie: lead, payload: { name: 'PURPLE team' } })).statusCode).toBe(
      200,
    );
    const taken = await t.api({ method: 'PATCH', url, cookie: lead, payload: { name: 'Internal Audit' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'team_name_taken', details: [{ field: 'name' }] });
    const empty = await t.api({ method: 'PATCH', url, cookie: lead, payload: { name: '' } });
    expect(empty.statusCode).toBe(400);
    expect((await listTeams()).find((x) => x.id === team.id)!.name).toBe('PURPLE team');
    const entry = (await auditEntries('team.update')).find(
      (e) => e.targetId === team.id && (e.after as { name: string }).name === 'Purple Team',
    );
    expect(entry).toMatchObject({ before: { name: 'Blue Team' }, after: { name: 'Purple Team' }, companyId: acmeId });
  });

  it('answers 404 team_not_found for a team of another company or one that does not exist', async () => {
    const globexTeam = (await listTeams(admin, globexId))[0];
    for (const id of [globexTeam.id, 'no-such-team']) {
      const res = await t.api({
        method: 'PATCH',
        url: `${teamsUrl()}/${id}`,
        cookie: lead,
        payload: { name: 'Stolen' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'team_not_found', message: 'Team not found.' });
    }
    expect((await listTeams(admin, globexId))[0].name).toBe(globexTeam.name);
  });

  it.each([
    ['member@acme.test', 403],
    ['auditor@demo.test', 404],
    ['client@globex.test', 404],
  ])('refuses %s with %i', async (email, status) => {
    const res = await t.api({
      method: 'POST',
      url: teamsUrl(),
      cookie: await t.cookieFor(email),
      payload: { name: `By ${email}` },
    });
    expect(res.statusCode).toBe(status);
  });
});

describe('DELETE /api/v1/companies/:id/teams/:teamId', () => {
  it('deletes the team with its members and values, and records what it held', async () => {
    const team = await createTeam('Short Lived');
    await t.api({ method: 'PUT', url: `${teamsUrl()}/${team.id}/users/${userIds['member@acme.test']}`, cookie: lead });
    expect(
      (
        await t.api({
          method: 'DELETE',
          url: `${teamsUrl()}/${team.id}`,
          cookie: await t.cookieFor('member@acme.test'),
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'DELETE', url: `${teamsUrl()}/${team.id}`, cookie: lead })).statusCode).toBe(204);
    expect((await listTeams()).map((x) => x.id)).not.toContain(team.id);
    expect(
      await t.database.db.selectFrom('team_members').select('user_id').where('team_id', '=', team.id).execute(),
    ).toEqual([]);
    expect((await t.api({ method: 'DELETE', url: `${teamsUrl()}/${team.id}`, cookie: lead })).json().code).toBe(
      'team_not_found',
    );
    const entry = (await auditEntries('team.delete')).find((e) => e.targetId === team.id);
    expect(entry).toMatchObject({
      targetLabel: 'Short Lived',
      before: { name: 'Short Lived', userIds: [userIds['member@acme.test']] },
    });
  });
});

describe('team members', () => {
  let team: Team;
  const memberUrl = (userId: string) => `${teamsUrl()}/${team.id}/users/${userId}`;
  const members = async () => (await listTeams()).find((x) => x.id === team.id)!.users.map((u) => u.email);

  beforeAll(async () => {
    team = await createTeam('Incident Response');
  });

  it('adds one member, idempotently, and records it once', async () => {
    expect((await t.api({ method: 'PUT', url: memberUrl(userIds['member@acme.test']), cookie: lead })).statusCode).toBe(
      204,
    );
    expect((await t.api({ method: 'PUT', url: memberUrl(userIds['member@acme.test']), cookie: lead })).statusCode).toBe(
      204,
    );
    expect(await members()).toEqual(['member@acme.test']);
    const entries = (await auditEntries('team.member.add')).filter((e) => e.targetId === team.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      companyId: acmeId,
      after: { userId: userIds['member@acme.test'], email: 'member@acme.test' },
    });
  });

  it('refuses with 404 user_not_found someone who is not a member with access', async () => {
    const revoked = userIds['chloe.martin@acme.test'];
    for (const userId of [userIds['client@globex.test'], userIds['consultant@demo.test'], revoked, 'nobody']) {
      const res = await t.api({ method: 'PUT', url: memberUrl(userId), cookie: lead });
      expect({ userId, status: res.statusCode, code: res.json().code }).toEqual({
        userId,
        status: 404,
        code: 'user_not_found',
      });
    }
    expect(await members()).toEqual(['member@acme.test']);
  });

  it('removes a member and records it; removing a non-member answers 404', async () => {
    await t.api({ method: 'PUT', url: memberUrl(userIds['both@acme.test']), cookie: lead });
    expect(
      (await t.api({ method: 'DELETE', url: memberUrl(userIds['both@acme.test']), cookie: lead })).statusCode,
    ).toBe(204);
    expect(await members()).toEqual(['member@acme.test']);
    const res = await t.api({ method: 'DELETE', url: memberUrl(userIds['both@acme.test']), cookie: lead });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('user_not_found');
    const entry = (await auditEntries('team.member.remove')).find((e) => e.targetId === team.id);
    expect(entry).toMatchObject({ before: { userId: userIds['both@acme.test'], email: 'both@acme.test' } });
  });

  it('adds several members at once, as the web encodes arrays (userIds[]) or repeated userIds', async () => {
    const bulk = `${teamsUrl()}/${team.id}/users`;
    const res = await t.api({
      method: 'PUT',
      url: `${bulk}?userIds[]=${userIds['sarah.kim@acme.test']}&userIds[]=${userIds['james.patel@acme.test']}&userIds[]=${userIds['member@acme.test']}`,
      cookie: lead,
    });
    expect(res.statusCode).toBe(204);
    expect(await members()).toEqual(['james.patel@acme.test', 'member@acme.test', 'sarah.kim@acme.test']);
    const encoded = await t.api({
      method: 'PUT',
      url: `${bulk}?userIds%5B%5D=${userIds['olivia.nguyen@acme.test']}`,
      cookie: lead,
    });
    expect(encoded.statusCode).toBe(204);
    const plain = await t.api({
      method: 'PUT',
      url: `${bulk}?userIds=${userIds['ethan.brooks@acme.test']}&userIds=${userIds['both@acme.test']}`,
      cookie: lead,
    });
    expect(plain.statusCode).toBe(204);
    expect(await members()).toEqual([
      'both@acme.test',
      'ethan.brooks@acme.test',
      'james.patel@acme.test',
      'member@acme.test',
      'olivia.nguyen@acme.test',
      'sarah.kim@acme.test',
    ]);
  });

  it('adds nobody when one of them is not a member, naming userIds', async () => {
    const before = await members();
    const outsider = await createUserWithPassword(t, 'Whatever-Passw0rd!', { companies: ['Globex Inc'] });
    const res = await t.api({
      method: 'PUT',
      url: `${teamsUrl()}/${team.id}/users?userIds[]=${userIds['lucas.silva@globex.test']}&userIds[]=${userIds['noah.fischer@acme.test']}&userIds[]=${outsider.id}`,
      cookie: lead,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'userIds' })],
    });
    expect(await members()).toEqual(before);
  });

  it.each([[''], ['?userIds[]='], ['?other=1']])('refuses %s with 400 naming userIds', async (query) => {
    const res = await t.api({ method: 'PUT', url: `${teamsUrl()}/${team.id}/users${query}`, cookie: lead });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(/^userIds/) })]),
    );
  });

  it('keeps members of the company without the permission out', async () => {
    const member = await t.cookieFor('member@acme.test');
    expect((await t.api({ method: 'PUT', url: memberUrl(userIds['lead@acme.test']), cookie: member })).statusCode).toBe(
      403,
    );
    expect(
      (await t.api({ method: 'DELETE', url: memberUrl(userIds['member@acme.test']), cookie: member })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.api({
          method: 'PUT',
          url: `${teamsUrl()}/${team.id}/users?userIds[]=${userIds['lead@acme.test']}`,
          cookie: member,
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.api({ method: 'PUT', url: memberUrl(userIds['lead@acme.test']) })).statusCode).toBe(401);
    expect(await members()).not.toContain('lead@acme.test');
  });
});

describe('team module access', () => {
  let team: Team;
  const url = () => `${teamsUrl()}/${team.id}/modules-access`;
  const ALL_NULL = { risks: null, projects: null, requests: null, reports: null, assets: null };

  beforeAll(async () => {
    team = await createTeam('Vendors');
    await t.api({
      method: 'PUT',
      url: `${teamsUrl()}/${team.id}/users/${userIds['ethan.brooks@acme.test']}`,
      cookie: lead,
    });
  });

  it('reads as all inherited at first, to any member', async () => {
    const res = await t.api({ method: 'GET', url: url(), cookie: await t.cookieFor('member@acme.test') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modulesAccess: ALL_NULL });
  });

  it('sets all five for staff, changes what members get, and records what changed', async () => {
    const values = { risks: false, projects: null, requests: true, reports: null, assets: false };
    const res = await t.api({ method: 'PUT', url: url(), cookie: admin, payload: values });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modulesAccess: values });
    expect((await t.api({ method: 'GET', url: url(), cookie: lead })).json()).toEqual({ modulesAccess: values });
    // Ethan's other team (Security Engineering) grants assets: a grant wins; nothing grants risks
    expect(await moduleAccessFor(t.database.db, userIds['ethan.brooks@acme.test'], acmeId)).toMatchObject({
      risks: false,
      assets: true,
      reports: false,
    });
    const entry = (await auditEntries('team.modules.update')).find((e) => e.targetId === team.id);
    expect(entry).toMatchObject({
      companyId: acmeId,
      before: { risks: null, requests: null, assets: null },
      after: { risks: false, requests: true, assets: false },
    });
  });

  it.each([
    [{ risks: true }, 'projects'],
    [{ ...ALL_NULL, risks: 'yes' }, 'risks'],
    [{ ...ALL_NULL, billing: true }, 'billing'],
  ])('refuses %j with 400 naming %s and changes nothing', async (payload, field) => {
    const before = (await t.api({ method: 'GET', url: url(), cookie: admin })).json();
    const res = await t.api({ method: 'PUT', url: url(), cookie: admin, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual(expect.objectContaining({ field }));
    expect((await t.api({ method: 'GET', url: url(), cookie: admin })).json()).toEqual(before);
  });

  it('is not for the company admin (company.editModulesAccess is staff only) nor other companies', async () => {
    expect((await t.api({ method: 'PUT', url: url(), cookie: lead, payload: ALL_NULL })).statusCode).toBe(403);
    expect(
      (await t.api({ method: 'PUT', url: url(), cookie: await t.cookieFor('client@globex.test'), payload: ALL_NULL }))
        .statusCode,
    ).toBe(404);
    expect((await t.api({ method: 'GET', url: `${teamsUrl()}/nope/modules-access`, cookie: lead })).json().code).toBe(
      'team_not_found',
    );
  });
});

describe('GET /api/v1/companies/:id/teams/:teamId/assigned-objects', () => {
  it('lists the projects the team was given, by name, each removable', async () => {
    const compliance = (await listTeams()).find((x) => x.name === 'Compliance Team')!;
    const res = await t.api({ method: 'GET', url: `${teamsUrl()}/${compliance.id}/assigned-objects`, cookie: lead });
    expect(res.statusCode).toBe(200);
    const { results } = assignedObjectListSchema.parse(res.json());
    expect(results.map((o) => o.name)).toEqual(['Acme ISO 27001 Gap Analysis', 'Acme SOC 2 Type II 2026']);
    for (const o of results)
      expect(o).toMatchObject({ module: 'projects', companyId: acmeId, role: null, removable: true });
  });

  it('is empty for a new team and refuses members without the permission', async () => {
    const team = await createTeam('Nothing Yet');
    const url = `${teamsUrl()}/${team.id}/assigned-objects`;
    expect((await t.api({ method: 'GET', url, cookie: lead })).json()).toEqual({ results: [] });
    expect((await t.api({ method: 'GET', url, cookie: await t.cookieFor('member@acme.test') })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url, cookie: await t.cookieFor('client@globex.test') })).statusCode).toBe(404);
  });
});
