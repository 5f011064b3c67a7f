import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  REQUEST_FILE_IMPORTED_COLUMNS,
  REQUEST_IMPORT_MAX_ERRORS,
  type RequestImportResult,
} from '@portal/shared/core/requests';
import { addProjectMember, insertProject } from '../../../../db/projects';
import { addTeamMember, insertTeam } from '../../../../db/teams';
import { parseRequestFile, type RequestFileRow } from '../../../../modules/imports/request-file';
import { createTestApp, type TestApp } from '../../../../test/app';
import { companyId } from '../../../../test/identity';
import {
  exportedFileRow,
  requestCsv as csv,
  requestFileRow,
  type RequestFileNames,
} from '../../../../test/request-files';
import { trackerXlsx } from '../../../../test/task-tracker-files';
import { multipart } from '../../../../test/project-file-fixtures';
import { newCompany, newUser } from '../../../../test/project-fixtures';

const IMPORTED = [...REQUEST_FILE_IMPORTED_COLUMNS];

let t: TestApp;
/** A company of the test's own (all modules on) and a second one with the same members, team and project titles. */
let home: { id: string; name: string };
let other: { id: string; name: string };
/** Titles of the two projects of `home` (project titles are unique across companies: `other` has none of them). */
let projectTitles: [string, string];
/** Client members of both companies: [0] and [1] on the team "Audit Team" of each. */
let members: { id: string; email: string }[];
let suspended: { id: string; email: string };
let revoked: { id: string; email: string };
/** A staff auditor holding a role on a project of `home`. */
let auditor: { id: string; email: string };

const consultant = () => t.cookieFor('consultant@demo.test');

const importFile = async (company: string, data: Buffer, filename = 'requests.csv', cookie?: string) =>
  t.api({
    method: 'POST',
    url: `/api/v1/companies/${company}/requests/import`,
    cookie: cookie ?? (await consultant()),
    ...multipart({}, { filename, data }),
  });

const exportFile = async (company: string, query: string, cookie?: string) =>
  t.api({
    method: 'GET',
    url: `/api/v1/companies/${company}/requests/export?${query}`,
    cookie: cookie ?? (await consultant()),
  });

async function newNamedCompany(name: string): Promise<{ id: string; name: string }> {
  return { id: await newCompany(t, name), name };
}

const nameOf = async (userId: string) => {
  const user = await t.database.db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return `${user.first_name} ${user.last_name}`;
};

const requestCount = async (company: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', company)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  t = await createTestApp();
  const suffix = randomUUID().slice(0, 8);
  home = await newNamedCompany(`Import Co ${suffix}`);
  other = await newNamedCompany(`Other Co ${suffix}`);
  members = [];
  for (let i = 0; i < 3; i++) members.push(await newUser(t, { companyIds: [home.id, other.id] }));
  suspended = await newUser(t, { companyIds: [home.id], status: 'suspended' });
  revoked = await newUser(t, { companyIds: [home.id] });
  await t.database.db
    .updateTable('company_memberships')
    .set({ access_revoked_at: new Date().toISOString() })
    .where('user_id', '=', revoked.id)
    .execute();
  auditor = await newUser(t, { isTevora: true, isAuditor: true });
  for (const company of [home, other]) {
    const team = await insertTeam(t.database.db, company.id, 'Audit Team');
    await addTeamMember(t.database.db, team, members[0].id);
    await addTeamMember(t.database.db, team, members[1].id);
  }
  projectTitles = [`Import Project A ${suffix}`, `Import Project B ${suffix}`];
  const project = await insertProject(t.database.db, { companyId: home.id, title: projectTitles[0], status: 'active' });
  await insertProject(t.database.db, { companyId: home.id, title: projectTitles[1], status: 'active' });
  await addProjectMember(t.database.db, project, auditor.id, 'Consultant');
});
afterAll(() => t.close());

const names = (): RequestFileNames => ({
  emails: [members[0].email, members[1].email, members[2].email],
  team: 'Audit Team',
  projects: projectTitles,
});

/** Rows of a file by title, without row numbers; people in a stable order (the export lists them by name). */
function byTitle(rows: RequestFileRow[]) {
  return new Map(
    rows.map(({ row: _row, reference: _reference, referenceNumber: _number, ...r }) => [
      r.title,
      { ...r, assignees: [...r.assignees].sort() },
    ]),
  );
}

const COUNT = 1_000;
let exportedCsv: Buffer;

describe('importing 1,000 requests and exporting them', () => {
  it('imports them in one go, all open, numbered after the references the file gives, with history and notifications', async () => {
    const file = csv(Array.from({ length: COUNT }, (_, i) => requestFileRow(i, names())));
    const started = performance.now();
    const res = await importFile(home.id, file);
    const took = performance.now() - started;
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
    const result = res.json() as RequestImportResult;
    expect(result.rows).toBe(COUNT);
    expect(result.created).toBe(COUNT);
    expect(result.references).toHaveLength(100);
    expect(result.references.slice(0, 3)).toEqual(['EXT-0', 'REQ-0001', 'REQ-0002']);
    // Generous for a loaded machine: bench/request-files measures the real figure.
    expect(took).toBeLessThan(15_000);

    const rows = await t.database.db
      .selectFrom('requests')
      .select(['id', 'reference', 'status', 'requester_id'])
      .where('company_id', '=', home.id)
      .execute();
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['open']));
    expect(
      rows
        .filter((r) => r.reference.startsWith('REQ-'))
        .map((r) => r.reference)
        .sort()
        .at(-1),
    ).toBe('REQ-0900');

    const events = await t.database.db
      .selectFrom('request_events')
      .innerJoin('requests', 'requests.id', 'request_events.request_id')
      .select(['request_events.type', 'request_events.detail', 'requests.reference'])
      .where('requests.company_id', '=', home.id)
      .execute();
    expect(events.filter((e) => e.type === 'imported')).toHaveLength(COUNT);
    expect(events.filter((e) => e.type === 'assigned')).toHaveLength(COUNT * 0.75);
    const teamAssignment = events.find((e) => e.type === 'assigned' && e.reference === 'REQ-0002');
    expect(JSON.parse(teamAssignment!.detail)).toEqual({ users: [await nameOf(members[1].id)], teams: ['Audit Team'] });

    const audits = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('company_id', '=', home.id)
      .where('action', '=', 'request.import')
      .execute();
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0].after!)).toMatchObject({ fileName: 'requests.csv', rows: COUNT, created: COUNT });

    // One bell per request for each person it reaches (members[0] is on the team: once for request 2).
    const request2 = await t.database.db
      .selectFrom('requests')
      .select(['id', 'title'])
      .where('company_id', '=', home.id)
      .where('reference', '=', 'REQ-0002')
      .executeTakeFirstOrThrow();
    const bells = await t.database.db
      .selectFrom('notifications')
      .select(['user_id', 'title', 'body', 'link'])
      .where('link', '=', `/requests/${request2.id}`)
      .execute();
    expect(bells.map((b) => b.user_id).sort()).toEqual([members[0].id, members[1].id].sort());
    expect(bells[0]).toMatchObject({
      title: `New request REQ-0002: ${request2.title}`,
      body: 'Daniel Reyes asked for evidence, due 8/1/2026',
    });
  });

  it.each(['csv', 'xlsx'] as const)(
    'exports them as %s with the titles, descriptions, priorities, due dates, assignees and projects imported',
    async (format) => {
      const res = await exportFile(home.id, `format=${format}`);
      expect(res.statusCode).toBe(200);
      const day = new Date().toISOString().slice(0, 10);
      const slug = home.name.toLowerCase().replace(/ /g, '-');
      expect(res.headers['content-disposition']).toContain(`filename="requests-${slug}-${day}.${format}"`);
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers['content-type']).toContain(format === 'csv' ? 'text/csv' : 'spreadsheetml');

      const back = await parseRequestFile(`export.${format}`, res.rawPayload);
      expect(back.rows).toBe(COUNT);
      const expected = new Map(
        Array.from({ length: COUNT }, (_, i) => exportedFileRow(i, names())).map((r) => [
          r.title,
          { ...r, assignees: [...r.assignees].sort() },
        ]),
      );
      expect(byTitle(back.requests)).toEqual(expected);
      // The list's default sort: newest first, then by reference: numbered ones by number, the file's own (EXT-n) after them.
      expect(back.requests.slice(0, 2).map((r) => r.reference)).toEqual(['REQ-0001', 'REQ-0002']);
      expect(back.requests.slice(-2).map((r) => r.reference)).toEqual(['EXT-980', 'EXT-990']);
      if (format === 'csv') exportedCsv = res.rawPayload;
    },
  );

  it('exports formula-looking cells with an apostrophe, which reading drops', async () => {
    const table = parse(exportedCsv.toString('utf8'), { bom: true }) as string[][];
    const header = table[0];
    const title = table.find((r) => r[header.indexOf('Title')].includes('HYPERLINK'))!;
    expect(title[header.indexOf('Title')]).toBe(`'=HYPERLINK("http://evil.test","Request 1")`);
    expect(table.find((r) => r[header.indexOf('Title')] === 'Request 7')![header.indexOf('Description')]).toBe(
      "'+What request 7 needs\nOn two lines",
    );
    const back = await parseRequestFile('export.csv', exportedCsv);
    expect(back.requests.find((r) => r.title.startsWith('=HYPERLINK'))?.title).toBe(
      '=HYPERLINK("http://evil.test","Request 1")',
    );
  });

  it('imports the export into another company as it was, and numbers later requests after its references', async () => {
    // The projects are the first company's: named there, they are row problems.
    const refused = await importFile(other.id, exportedCsv, 'export.csv');
    expect(refused.json()).toMatchObject({
      code: 'malformed_request_file',
      message: expect.stringMatching(
        new RegExp(`^Row \\d+, Project: "Import Project [AB] .*" is not a project of ${other.name}$`),
      ),
    });

    // Without them, the rest imports as it was.
    const table = parse(exportedCsv.toString('utf8'), { bom: true }) as string[][];
    const withoutProjects = stringify(table.map((r) => r.filter((_, i) => table[0][i] !== 'Project')));
    const res = await importFile(other.id, Buffer.from(withoutProjects), 'export.csv');
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 201,
      body: { rows: COUNT, created: COUNT },
    });
    const again = await exportFile(other.id, 'format=csv');
    const first = await parseRequestFile('a.csv', exportedCsv);
    const second = await parseRequestFile('b.csv', again.rawPayload);
    expect(second.requests.map(({ row: _row, ...r }) => ({ ...r, assignees: [...r.assignees].sort() }))).toEqual(
      first.requests.map(({ row: _row, ...r }) => ({ ...r, project: null, assignees: [...r.assignees].sort() })),
    );

    const next = await importFile(other.id, csv([{ Title: 'After the import' }]));
    expect(next.json()).toMatchObject({ created: 1, references: ['REQ-0901'] });
  });

  it('refuses the export in the company it came from: its references exist there', async () => {
    const res = await importFile(home.id, exportedCsv, 'export.csv');
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; message: string; details: { field: string; message: string }[] };
    expect(body.code).toBe('malformed_request_file');
    expect(body.message).toBe(`Row 2, Reference: "REQ-0001" already exists in ${home.name}`);
    expect(body.details).toHaveLength(REQUEST_IMPORT_MAX_ERRORS);
    expect(await requestCount(home.id)).toBe(COUNT);
  });
});

describe('file problems', () => {
  it('names the row and the column of each bad cell, and creates nothing', async () => {
    const before = await requestCount(home.id);
    const res = await importFile(
      home.id,
      csv([
        { Title: 'Fine' },
        { Title: 'Bad date', 'Due Date': '2026-13-01' },
        { Title: 'x'.repeat(201) },
        { Title: 'Bad priority', Priority: 'Urgent' },
        { Reference: 'DUP-1', Title: 'One' },
        { Reference: 'dup-1', Title: 'Two' },
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'malformed_request_file',
      message: 'Row 3, Due Date: "2026-13-01" is not a day of the calendar.',
      details: [
        { field: 'file', message: 'Row 3, Due Date: "2026-13-01" is not a day of the calendar.' },
        { field: 'file', message: 'Row 4, Title: Title must be at most 200 characters (it has 201).' },
        {
          field: 'file',
          message: 'Row 5, Priority: Priority must be one of Low, Medium, High, Critical (it is "Urgent").',
        },
        { field: 'file', message: 'Row 7, Reference: "dup-1" is also on row 6. References must be unique.' },
      ],
    });
    expect(await requestCount(home.id)).toBe(before);
  });

  it('names every assignee, project and reference the company lacks, together', async () => {
    const before = await requestCount(home.id);
    const res = await importFile(
      home.id,
      csv([
        { Title: 'Strangers', Assignees: `nobody@example.test; ${members[0].email}; Ghost Team; consultant@demo.test` },
        { Title: 'Gone', Assignees: `${suspended.email}\n${revoked.email}` },
        { Title: 'Elsewhere', Project: 'Acme SOC 2 Type II 2026' },
        { Reference: 'req-0001', Title: 'Taken' },
      ]),
    );
    expect(res.statusCode).toBe(400);
    const company = home.name;
    expect(res.json()).toMatchObject({
      code: 'malformed_request_file',
      message: `Row 2, Assignees: "nobody@example.test" is not an active member or team of ${company}`,
    });
    expect((res.json() as { details: { message: string }[] }).details.map((d) => d.message)).toEqual([
      `Row 2, Assignees: "nobody@example.test" is not an active member or team of ${company}`,
      `Row 2, Assignees: "Ghost Team" is not an active member or team of ${company}`,
      `Row 2, Assignees: "consultant@demo.test" is not an active member or team of ${company}`,
      `Row 3, Assignees: "${suspended.email}" is not an active member or team of ${company}`,
      `Row 3, Assignees: "${revoked.email}" is not an active member or team of ${company}`,
      `Row 4, Project: "Acme SOC 2 Type II 2026" is not a project of ${company}`,
      `Row 5, Reference: "req-0001" already exists in ${company}`,
    ]);
    expect(await requestCount(home.id)).toBe(before);
  });

  it('refuses a file without the Title column', async () => {
    const res = await importFile(home.id, csv([{ Reference: 'R-1' }], ['Reference', 'Description']));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'malformed_request_file',
      message: expect.stringMatching(/^Row 1: the header row has no "Title" column/),
    });
  });

  it('refuses other formats by name, and a form without a file', async () => {
    expect((await importFile(home.id, Buffer.from('x'), 'requests.xls')).json()).toMatchObject({
      code: 'no_excel_file',
    });
    expect((await importFile(home.id, Buffer.from('x'), 'requests.xls')).statusCode).toBe(415);
    expect((await importFile(home.id, csv([{ Title: 'x' }]), 'requests.txt')).statusCode).toBe(415);
    const empty = await t.api({
      method: 'POST',
      url: `/api/v1/companies/${home.id}/requests/import`,
      cookie: await consultant(),
      ...multipart({ note: 'no file' }),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'file' }] });
  });

  it('reads an .xlsx with date cells', async () => {
    const xlsx = await trackerXlsx(
      [
        {
          Title: 'From a workbook',
          'Due Date': new Date(Date.UTC(2026, 5, 30)),
          Assignees: members[0].email,
          Project: projectTitles[0],
        },
      ],
      IMPORTED,
    );
    const res = await importFile(home.id, xlsx, 'requests.xlsx');
    expect(res.statusCode).toBe(201);
    const row = await t.database.db
      .selectFrom('requests')
      .select(['due_date', 'project_id'])
      .where(
        'id',
        'in',
        t.database.db
          .selectFrom('requests')
          .select('id')
          .where('company_id', '=', home.id)
          .where('title', '=', 'From a workbook'),
      )
      .executeTakeFirstOrThrow();
    expect(row.due_date).toBe('2026-06-30');
    expect(row.project_id).not.toBeNull();
  });
});

describe('who may import and export', () => {
  it('refuses clients and auditors the import (403 forbidden)', async () => {
    const acme = await companyId(t, 'Acme Corp');
    for (const [company, email] of [
      [acme, 'lead@acme.test'],
      [home.id, members[0].email],
      [home.id, auditor.email],
    ]) {
      const res = await importFile(company, csv([{ Title: 'x' }]), 'requests.csv', await t.cookieFor(email));
      expect({ email, status: res.statusCode, code: res.json().code }).toEqual({
        email,
        status: 403,
        code: 'forbidden',
      });
    }
  });

  it('refuses everything where the requests module is off (Globex)', async () => {
    const globex = await companyId(t, 'Globex Inc');
    const cookie = await consultant();
    expect((await importFile(globex, csv([{ Title: 'x' }]), 'requests.csv', cookie)).json()).toMatchObject({
      code: 'module_access_denied',
    });
    const exported = await exportFile(globex, 'format=csv', cookie);
    expect({ status: exported.statusCode, code: exported.json().code }).toEqual({
      status: 403,
      code: 'module_access_denied',
    });
    const template = await t.api({
      method: 'GET',
      url: `/api/v1/companies/${globex}/requests/file-template?format=csv`,
      cookie,
    });
    expect(template.statusCode).toBe(403);
  });

  it('exports what the caller sees, with the list filters and sort', async () => {
    // members[2] is assigned directly to requests 3, 7, 11, … (i % 4 === 3) and is on no team.
    const client = await t.cookieFor(members[2].email);
    const mine = await parseRequestFile('mine.csv', (await exportFile(home.id, 'format=csv', client)).rawPayload);
    expect(mine.rows).toBe(COUNT / 4);
    expect(mine.requests.every((r) => r.assignees.some((a) => a.toLowerCase() === members[2].email))).toBe(true);

    const filtered = await parseRequestFile(
      'high.csv',
      (await exportFile(home.id, 'format=csv&priority=high&priority=critical&sort=-title&search=Request%201', client))
        .rawPayload,
    );
    const titles = filtered.requests.map((r) => r.title);
    expect(titles.length).toBeGreaterThan(0);
    expect(
      filtered.requests.every(
        (r) => ['high', 'critical'].includes(r.priority) && r.assignees.includes(members[2].email),
      ),
    ).toBe(true);
    expect(titles).toEqual([...titles].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? 1 : -1)));
  });

  it('answers a file with the header alone when nothing matches, and 400 for a bad format', async () => {
    const none = await exportFile(home.id, 'format=csv&search=no-such-request-anywhere');
    expect(none.statusCode).toBe(200);
    expect(
      none.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    const bad = await exportFile(home.id, 'format=pdf');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'format' }] });
  });

  it.each(['csv', 'xlsx'] as const)(
    'offers a %s template to every member, with the imported columns and two example rows',
    async (format) => {
      const res = await t.api({
        method: 'GET',
        url: `/api/v1/companies/${home.id}/requests/file-template?format=${format}`,
        cookie: await t.cookieFor(members[0].email),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(`requests-template.${format}`);
      const content = await parseRequestFile(`template.${format}`, res.rawPayload);
      expect(content.rows).toBe(2);
    },
  );
});
