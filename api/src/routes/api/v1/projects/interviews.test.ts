import net from 'node:net';
import {
  instantToZoned,
  zonedToInstant,
  type Interview,
  type InterviewList,
  type InterviewPeople,
} from '@portal/shared/core/interviews';
import * as auditLog from '../../../../db/audit-log';
import { insertInterview } from '../../../../db/interviews';
import { createTestApp, type TestApp } from '../../../../test/app';
import { startFakeGraph, type FakeGraph } from '../../../../test/fake-graph';
import { clearOutbox, readOutbox, type OutboxMail } from '../../../../test/identity';
import { acmeProjectsSetup, auditRows, leadRoster, newActiveProject, newUser } from '../../../../test/project-fixtures';

const DAY = 86_400_000;
const NEW_YORK = 'America/New_York';

/** The local date `offset` days from now in `zone`, moved on (or back, `step` -1) to a day `fits`. */
function dateIn(zone: string, offset: number, fits: (weekday: number) => boolean, step = 1): string {
  for (let d = offset; ; d += step) {
    const date = instantToZoned(Date.now() + d * DAY, zone).date;
    if (fits(new Date(`${date}T00:00:00Z`).getUTCDay())) return date;
  }
}
const weekday = (d: number) => d >= 1 && d <= 5;
/** Fixed-offset zones from UTC-12 to UTC+14 (Etc/GMT signs are inverted): no summer time to move a day. */
const FIXED_ZONES = Array.from({ length: 27 }, (_, i) => 12 - i).map((h) =>
  h === 0 ? 'UTC' : `Etc/GMT${h > 0 ? '+' : ''}${h}`,
);
/** The local date and time `days` days from now in the first fixed zone where that day is a weekday (null: none is). */
function daysAhead(days: number): Record<string, unknown> | null {
  const at = Date.now() + days * DAY;
  for (const zone of FIXED_ZONES) {
    const local = instantToZoned(at, zone);
    if (weekday(new Date(`${local.date}T00:00:00Z`).getUTCDay())) return { ...local, timeZone: zone };
  }
  return null;
}
/** A Monday-to-Friday at least a day ahead in `zone`. */
const nextWeekday = (zone = NEW_YORK, offset = 2) => dateIn(zone, offset, weekday);

/** Midnight of today in a zone where today is a weekday past midnight (most days one exists), else the last weekday. */
function earlierToday(): Record<string, unknown> {
  for (const zone of [
    NEW_YORK,
    'Pacific/Honolulu',
    'Europe/London',
    'Asia/Kolkata',
    'Asia/Tokyo',
    'Pacific/Kiritimati',
  ]) {
    const now = instantToZoned(Date.now(), zone);
    if (weekday(new Date(`${now.date}T00:00:00Z`).getUTCDay()) && now.time >= '00:05')
      return { date: now.date, time: '00:00', timeZone: zone };
  }
  return { date: dateIn(NEW_YORK, -1, weekday, -1) };
}

/** The .ics attachment of a mail, decoded (exact bytes, CRLF line ends), folds undone. */
function calendarOf(mail: OutboxMail): string {
  const match =
    /Content-Type: application\/ics;\s+name=[^\n]+\nContent-Disposition: attachment;\s+filename=[^\n]+\nContent-Transfer-Encoding: base64\n\n([A-Za-z0-9+/=\n]+)/.exec(
      mail.raw,
    );
  if (!match) throw new Error(`no calendar attachment in the mail to ${mail.to}`);
  return Buffer.from(match[1].replace(/\n/g, ''), 'base64').toString('utf8').replace(/\r\n /g, '');
}
const calendarLines = (text: string) => text.split('\r\n');

let t: TestApp;
let acmeId: string;
let userIds: Record<string, string>;
let cookies: Record<string, string>;
/** Acme project: consultant@demo.test Lead Consultant (the caller), lead@acme.test Client Lead. */
let projectId: string;
let otherProjectId: string;

const consultant = () => cookies['consultant@demo.test'];

beforeAll(async () => {
  t = await createTestApp();
  ({ acmeId, userIds, cookies, projectId, otherProjectId } = await acmeProjectsSetup(
    t,
    ['Interviews test project', 'Interviews other project'],
    [
      'consultant@demo.test',
      'auditor@demo.test',
      'lead@acme.test',
      'member@acme.test',
      'client@globex.test',
      'nina.patel@demo.test',
    ],
  ));
});
afterAll(() => t.close());

const interviewsUrl = (project = projectId) => `/api/v1/projects/${project}/interviews`;
const interviewUrl = (id: string, project = projectId) => `${interviewsUrl(project)}/${id}`;

/** A valid schedule: a weekday at 10:00 in New York, the consultant organizing, Nina interviewing, Laura attending. */
function validInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Access control walkthrough',
    description: 'Bring the joiners, movers and leavers list',
    location: 'Conference room 4; floor 2',
    date: nextWeekday(),
    time: '10:00',
    timeZone: NEW_YORK,
    durationMinutes: 45,
    organizerId: userIds['consultant@demo.test'],
    interviewerIds: [userIds['nina.patel@demo.test']],
    attendeeIds: [userIds['lead@acme.test']],
    ...overrides,
  };
}

async function schedule(overrides: Record<string, unknown> = {}, project = projectId): Promise<Interview> {
  const res = await t.api({
    method: 'POST',
    url: interviewsUrl(project),
    cookie: consultant(),
    payload: validInput(overrides),
  });
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201 });
  return res.json() as Interview;
}

async function interviewCount(project = projectId): Promise<number> {
  const row = await t.database.db
    .selectFrom('interviews')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('project_id', '=', project)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An interview written straight to the database (no rule checked): past ones cannot be made through the api. */
async function insertRow(
  project: string,
  startsAt: number,
  options: { title?: string; status?: 'canceled' } = {},
): Promise<string> {
  const id = await insertInterview(t.database.db, {
    projectId: project,
    companyId: acmeId,
    title: options.title ?? 'Row',
    description: null,
    location: null,
    startsAt,
    endsAt: startsAt + 3_600_000,
    timeZone: NEW_YORK,
    organizerId: userIds['consultant@demo.test'],
    interviewerIds: [userIds['nina.patel@demo.test']],
    attendeeIds: [],
    onlineMeetingUrl: null,
    graphEventId: null,
    graphSubscriptionId: null,
    createdBy: userIds['consultant@demo.test'],
  });
  if (options.status)
    await t.database.db.updateTable('interviews').set({ status: 'canceled' }).where('id', '=', id).execute();
  return id;
}

describe('POST /api/v1/projects/:id/interviews', () => {
  it('schedules the interview, records it and mails each participant one invitation', async () => {
    clearOutbox(t);
    const input = validInput({
      attendeeIds: [userIds['lead@acme.test'], userIds['nina.patel@demo.test'], userIds['lead@acme.test']],
    });
    const res = await t.api({ method: 'POST', url: interviewsUrl(), cookie: consultant(), payload: input });
    expect(res.statusCode).toBe(201);
    const interview = res.json() as Interview;
    const startsAt = zonedToInstant(input.date as string, '10:00', NEW_YORK)!;
    expect(interview).toMatchObject({
      projectId,
      title: 'Access control walkthrough',
      description: 'Bring the joiners, movers and leavers list',
      location: 'Conference room 4; floor 2',
      status: 'scheduled',
      date: input.date,
      time: '10:00',
      timeZone: NEW_YORK,
      durationMinutes: 45,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(startsAt + 45 * 60_000).toISOString(),
      organizer: {
        id: userIds['consultant@demo.test'],
        email: 'consultant@demo.test',
        firstName: 'Daniel',
        lastName: 'Reyes',
      },
      interviewers: [{ id: userIds['nina.patel@demo.test'], email: 'nina.patel@demo.test' }],
      // Nina interviews, so she is not an attendee as well; Laura once.
      attendees: [{ id: userIds['lead@acme.test'], email: 'lead@acme.test' }],
      onlineMeetingUrl: null,
      canceledAt: null,
      invitations: { sent: 3, failed: 0 },
    });

    const mails = readOutbox(t);
    expect(mails.map((m) => m.to).sort()).toEqual(['consultant@demo.test', 'lead@acme.test', 'nina.patel@demo.test']);
    for (const mail of mails) {
      expect(mail.subject).toBe('Invitation: Access control walkthrough');
      expect(mail.raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=REQUEST$/m);
      // The link is on PUBLIC_URL (here the test's), never on the request's Host header.
      expect(mail.text).toContain(`${t.config.publicUrl}/v2/projects/`);
      const lines = calendarLines(calendarOf(mail));
      expect(lines).toEqual(
        expect.arrayContaining([
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'METHOD:REQUEST',
          `UID:${interview.id}@portal.invalid`,
          'SEQUENCE:0',
          `DTSTART:${new Date(startsAt)
            .toISOString()
            .replace(/\.000Z$/, 'Z')
            .replace(/[-:]/g, '')}`,
          'SUMMARY:Access control walkthrough',
          'LOCATION:Conference room 4\\; floor 2',
          'ORGANIZER;CN="Daniel Reyes":mailto:consultant@demo.test',
          'ATTENDEE;CN="Nina Patel";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:nina.patel@demo.test',
          'ATTENDEE;CN="Laura Chen";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:lead@acme.test',
          'STATUS:CONFIRMED',
        ]),
      );
    }

    const [entry] = await auditRows(t, 'interview.create', interview.id);
    expect(entry).toMatchObject({
      actor_email: 'consultant@demo.test',
      company_id: acmeId,
      target_type: 'interview',
      after: { title: 'Access control walkthrough', timeZone: NEW_YORK },
    });
    // The bell: the other participants, not the one who scheduled it.
    const notified = await t.database.db
      .selectFrom('notifications')
      .select('user_id')
      .where('title', '=', 'Interview scheduled: Access control walkthrough')
      .execute();
    expect(notified.map((n) => n.user_id).sort()).toEqual(
      [userIds['lead@acme.test'], userIds['nina.patel@demo.test']].sort(),
    );

    const read = await t.api({ method: 'GET', url: interviewUrl(interview.id), cookie: cookies['lead@acme.test'] });
    expect(read.statusCode).toBe(200);
    const { invitations, ...stored } = interview;
    expect(invitations).toBeDefined();
    expect(read.json()).toEqual(stored);
  });

  it('accepts a weekday in the zone that is already Saturday in UTC', async () => {
    const friday = dateIn(NEW_YORK, 2, (d) => d === 5);
    const interview = await schedule({ date: friday, time: '20:00' });
    expect(new Date(interview.startsAt).getUTCDay()).toBe(6);
  });

  it.each<[string, number, string, string, () => Record<string, unknown>]>([
    ['no time zone', 400, 'no_timezone', 'timeZone', () => ({ timeZone: undefined })],
    ['an empty time zone', 400, 'no_timezone', 'timeZone', () => ({ timeZone: '  ' })],
    ['an unknown time zone', 400, 'invalid_meeting_argument', 'timeZone', () => ({ timeZone: 'Mars/Olympus_Mons' })],
    ['a date that does not exist', 400, 'invalid_meeting_argument', 'time', () => ({ date: '2027-02-30' })],
    [
      'a Saturday in the zone (a Friday in UTC)',
      400,
      'interview_day_is_invalid',
      'date',
      () => ({ date: dateIn('Pacific/Auckland', 2, (d) => d === 6), time: '08:00', timeZone: 'Pacific/Auckland' }),
    ],
    ['a Sunday', 400, 'interview_day_is_invalid', 'date', () => ({ date: dateIn(NEW_YORK, 2, (d) => d === 0) })],
    ['a time earlier today', 400, 'interview_date_time_is_in_the_past', 'time', earlierToday],
    [
      'a past weekday',
      400,
      'interview_date_time_is_in_the_past',
      'time',
      () => ({ date: dateIn(NEW_YORK, -1, weekday, -1) }),
    ],
    ['a weekday 64 days out', 400, 'max_interval_exceeded', 'date', () => ({ date: dateIn(NEW_YORK, 64, weekday) })],
    ['a null time zone', 400, 'no_timezone', 'timeZone', () => ({ timeZone: null })],
  ])('refuses %s with %i %s naming %s, storing and mailing nothing', async (_name, status, code, field, overrides) => {
    clearOutbox(t);
    const before = await interviewCount();
    const res = await t.api({
      method: 'POST',
      url: interviewsUrl(),
      cookie: consultant(),
      payload: validInput(overrides()),
    });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status,
      body: { code, details: [expect.objectContaining({ field })] },
    });
    expect(await interviewCount()).toBe(before);
    expect(readOutbox(t)).toEqual([]);
  });

  it('accepts a start exactly 62 days ahead and refuses one 63 days ahead', async () => {
    const edge = daysAhead(62);
    const beyond = daysAhead(63);
    // Some weekend hours no zone has a weekday 62 (or 63) days on; the shared unit tests cover the edge with a fixed clock.
    if (edge)
      expect((await schedule({ ...edge, durationMinutes: 15 })).startsAt).toBe(
        new Date(zonedToInstant(edge.date as string, edge.time as string, edge.timeZone as string)!).toISOString(),
      );
    if (beyond) {
      const res = await t.api({
        method: 'POST',
        url: interviewsUrl(),
        cookie: consultant(),
        payload: validInput(beyond),
      });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'max_interval_exceeded' });
    }
  });

  it('stores the time zone in its canonical spelling', async () => {
    const interview = await schedule({ timeZone: 'america/new_york' });
    expect(interview.timeZone).toBe(NEW_YORK);
    const row = await t.database.db
      .selectFrom('interviews')
      .select('time_zone')
      .where('id', '=', interview.id)
      .executeTakeFirstOrThrow();
    expect(row.time_zone).toBe(NEW_YORK);
  });

  it('checks the time rules in the contract order: the zone before the day, the day before the past', async () => {
    const saturdayPast = dateIn(NEW_YORK, -1, (d) => d === 6, -1);
    const res = await t.api({
      method: 'POST',
      url: interviewsUrl(),
      cookie: consultant(),
      payload: validInput({ date: saturdayPast, timeZone: '' }),
    });
    expect(res.json()).toMatchObject({ code: 'no_timezone' });
    const day = await t.api({
      method: 'POST',
      url: interviewsUrl(),
      cookie: consultant(),
      payload: validInput({ date: saturdayPast }),
    });
    expect(day.json()).toMatchObject({ code: 'interview_day_is_invalid' });
    // A bad time before a bad organizer.
    const first = await t.api({
      method: 'POST',
      url: interviewsUrl(),
      cookie: consultant(),
      payload: validInput({ date: saturdayPast, organizerId: userIds['member@acme.test'] }),
    });
    expect(first.json()).toMatchObject({ code: 'interview_day_is_invalid' });
  });

  it('refuses input the schema refuses with 400 validation_failed naming the fields', async () => {
    const res = await t.api({
      method: 'POST',
      url: interviewsUrl(),
      cookie: consultant(),
      payload: validInput({ title: ' ', time: '25:00', interviewerIds: [] }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(
      res
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['interviewerIds', 'time', 'title']);
  });

  it('accepts as organizer only an active Lead Consultant or Consultant of the project', async () => {
    const staffConsultant = await newUser(t, { isTevora: true });
    const project = await newActiveProject(t, acmeId, 'Organizer project', [
      ...leadRoster(userIds),
      [staffConsultant.id, 'Consultant'],
    ]);
    expect((await schedule({ organizerId: staffConsultant.id }, project)).organizer?.id).toBe(staffConsultant.id);
    const suspended = await newUser(t, { isTevora: true, status: 'suspended' });
    await t.database.db
      .insertInto('project_members')
      .values({ project_id: project, user_id: suspended.id, role: 'Consultant' })
      .execute();
    for (const organizerId of [
      userIds['nina.patel@demo.test'],
      userIds['lead@acme.test'],
      suspended.id,
      'no-such-user',
    ]) {
      const res = await t.api({
        method: 'POST',
        url: interviewsUrl(project),
        cookie: consultant(),
        payload: validInput({ organizerId }),
      });
      expect({ organizerId, status: res.statusCode, body: res.json() }).toMatchObject({
        organizerId,
        status: 400,
        body: { code: 'invalid_meeting_organizer', details: [expect.objectContaining({ field: 'organizerId' })] },
      });
    }
  });

  it('accepts only active staff as interviewers, auditors only with a role on the project', async () => {
    const auditorOnRoster = await newUser(t, { isTevora: true, isAuditor: true });
    const project = await newActiveProject(t, acmeId, 'Interviewers project', [
      ...leadRoster(userIds),
      [auditorOnRoster.id, 'Consultant'],
    ]);
    expect(
      (await schedule({ interviewerIds: [auditorOnRoster.id, userIds['nina.patel@demo.test']] }, project)).interviewers,
    ).toHaveLength(2);
    const suspendedStaff = await newUser(t, { isTevora: true, status: 'suspended' });
    for (const id of [userIds['lead@acme.test'], userIds['auditor@demo.test'], suspendedStaff.id]) {
      const res = await t.api({
        method: 'POST',
        url: interviewsUrl(project),
        cookie: consultant(),
        payload: validInput({ interviewerIds: [userIds['nina.patel@demo.test'], id] }),
      });
      expect({ id, status: res.statusCode, body: res.json() }).toMatchObject({
        id,
        status: 400,
        body: {
          code: 'invalid_meeting_argument',
          message: 'Only staff can be interviewers',
          details: [expect.objectContaining({ field: 'interviewerIds', message: expect.stringContaining(id) })],
        },
      });
    }
  });

  it("accepts as attendees active users of the project's roster or company, nobody else", async () => {
    const staffOnRoster = await newUser(t, { isTevora: true });
    const project = await newActiveProject(t, acmeId, 'Attendees project', [
      ...leadRoster(userIds),
      [staffOnRoster.id, 'Consultant'],
    ]);
    const attendees = [userIds['member@acme.test'], staffOnRoster.id];
    expect((await schedule({ attendeeIds: attendees }, project)).attendees.map((a) => a.id).sort()).toEqual(
      [...attendees].sort(),
    );
    const revoked = await newUser(t, { companyIds: [acmeId] });
    await t.database.db
      .updateTable('company_memberships')
      .set({ access_revoked_at: new Date().toISOString() })
      .where('user_id', '=', revoked.id)
      .execute();
    const suspended = await newUser(t, { companyIds: [acmeId], status: 'suspended' });
    for (const id of [userIds['client@globex.test'], userIds['admin@demo.test'], revoked.id, suspended.id]) {
      const res = await t.api({
        method: 'POST',
        url: interviewsUrl(project),
        cookie: consultant(),
        payload: validInput({ attendeeIds: [id] }),
      });
      expect({ id, status: res.statusCode, body: res.json() }).toMatchObject({
        id,
        status: 400,
        body: { code: 'invalid_meeting_argument', details: [expect.objectContaining({ field: 'attendeeIds' })] },
      });
    }
  });

  it('refuses clients, even a Client Lead who may write to the project, with 403', async () => {
    const before = await interviewCount();
    for (const email of ['lead@acme.test', 'member@acme.test']) {
      const res = await t.api({ method: 'POST', url: interviewsUrl(), cookie: cookies[email], payload: validInput() });
      expect({ email, status: res.statusCode, code: res.json().code }).toEqual({
        email,
        status: 403,
        code: 'user_can_not_update_project',
      });
    }
    expect(await interviewCount()).toBe(before);
  });

  it('answers 404 to a user of another company and to an auditor without a role', async () => {
    for (const email of ['client@globex.test', 'auditor@demo.test']) {
      for (const [method, url] of [
        ['GET', interviewsUrl()],
        ['POST', interviewsUrl()],
        ['GET', `/api/v1/projects/${projectId}/interview-people`],
      ] as const) {
        const res = await t.api({
          method,
          url,
          cookie: cookies[email],
          ...(method === 'POST' ? { payload: validInput() } : {}),
        });
        expect({ email, url, status: res.statusCode, code: res.json().code }).toEqual({
          email,
          url,
          status: 404,
          code: 'project_not_found',
        });
      }
    }
  });

  it('refuses a canceled project with 409 project_is_canceled', async () => {
    const project = await newActiveProject(t, acmeId, 'Canceled project', leadRoster(userIds));
    const interview = await schedule({}, project);
    await t.database.db.updateTable('projects').set({ status: 'canceled' }).where('id', '=', project).execute();
    for (const [method, url, payload] of [
      ['POST', interviewsUrl(project), validInput()],
      ['PATCH', interviewUrl(interview.id, project), { title: 'New' }],
      ['POST', `${interviewUrl(interview.id, project)}/cancel`, {}],
    ] as const) {
      const res = await t.api({ method, url, cookie: consultant(), payload });
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 409,
        code: 'project_is_canceled',
      });
    }
    expect(await interviewCount(project)).toBe(1);
  });

  it('keeps the interview when an invitation cannot be sent, and counts the failure', async () => {
    const send = t.app.mailer.send.bind(t.app.mailer);
    const spy = jest
      .spyOn(t.app.mailer, 'send')
      .mockImplementation((mail) =>
        mail.to === 'lead@acme.test' ? Promise.reject(new Error('mailbox unavailable')) : send(mail),
      );
    try {
      const interview = await schedule();
      expect(interview.invitations).toEqual({ sent: 2, failed: 1 });
      expect((await t.api({ method: 'GET', url: interviewUrl(interview.id), cookie: consultant() })).statusCode).toBe(
        200,
      );
    } finally {
      spy.mockRestore();
    }
  });
});

describe('GET /api/v1/projects/:id/interviews', () => {
  it('lists upcoming (soonest first), past and canceled (newest first) and all, a page at a time', async () => {
    const project = await newActiveProject(t, acmeId, 'List project', leadRoster(userIds));
    const now = Date.now();
    const ids = {
      soon: await insertRow(project, now + 2 * DAY, { title: 'Soon' }),
      later: await insertRow(project, now + 5 * DAY, { title: 'Later' }),
      // Started and not ended: still upcoming.
      running: await insertRow(project, now - 30 * 60_000, { title: 'Running' }),
      recent: await insertRow(project, now - 2 * DAY, { title: 'Recent' }),
      old: await insertRow(project, now - 9 * DAY, { title: 'Old' }),
      canceled: await insertRow(project, now + 3 * DAY, { title: 'Canceled', status: 'canceled' }),
    };
    await insertRow(otherProjectId, now + DAY, { title: 'Another project' });
    const list = async (query: string, cookie = cookies['lead@acme.test']) => {
      const res = await t.api({ method: 'GET', url: `${interviewsUrl(project)}${query}`, cookie });
      expect(res.statusCode).toBe(200);
      const body = res.json() as InterviewList;
      return { ...body, titles: body.results.map((r) => r.title) };
    };
    expect(await list('')).toMatchObject({ titles: ['Running', 'Soon', 'Later'], total: 3, page: 1, pageSize: 10 });
    expect((await list('?when=past')).titles).toEqual(['Recent', 'Old']);
    expect((await list('?when=canceled')).titles).toEqual(['Canceled']);
    expect((await list('?when=all')).titles).toEqual(['Later', 'Canceled', 'Soon', 'Running', 'Recent', 'Old']);
    expect(await list('?when=all&page=2&pageSize=4')).toMatchObject({
      titles: ['Recent', 'Old'],
      total: 6,
      page: 2,
      pageSize: 4,
    });
    const soon = (await list('?when=upcoming&pageSize=1&page=2')).results[0];
    expect(soon).toMatchObject({
      id: ids.soon,
      status: 'scheduled',
      timeZone: NEW_YORK,
      durationMinutes: 60,
      organizer: { email: 'consultant@demo.test' },
    });

    const bad = await t.api({
      method: 'GET',
      url: `${interviewsUrl(project)}?when=someday&page=0`,
      cookie: consultant(),
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['page', 'when']);
  });
});

describe('GET /api/v1/projects/:id/interview-people', () => {
  it("lists the form's organizers, interviewers and attendees; a client sees only the roster's staff", async () => {
    const res = await t.api({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/interview-people`,
      cookie: consultant(),
    });
    expect(res.statusCode).toBe(200);
    const people = res.json() as InterviewPeople;
    const emails = (list: { email: string }[]) => list.map((p) => p.email);
    expect(emails(people.organizers)).toEqual(['consultant@demo.test']);
    expect(emails(people.interviewers)).toEqual(
      expect.arrayContaining(['consultant@demo.test', 'nina.patel@demo.test', 'admin@demo.test']),
    );
    expect(emails(people.interviewers)).not.toContain('auditor@demo.test');
    expect(emails(people.interviewers)).not.toContain('lead@acme.test');
    expect(emails(people.attendees)).toEqual(
      expect.arrayContaining(['consultant@demo.test', 'lead@acme.test', 'member@acme.test']),
    );
    expect(emails(people.attendees)).not.toContain('client@globex.test');
    expect(emails(people.attendees)).not.toContain('mia.rossi@acme.test');
    expect(emails(people.attendees)).not.toContain('chloe.martin@acme.test');

    const asClient = (
      await t.api({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/interview-people`,
        cookie: cookies['lead@acme.test'],
      })
    ).json() as InterviewPeople;
    expect(emails(asClient.interviewers)).toEqual(['consultant@demo.test']);
  });
});

describe('PATCH /api/v1/projects/:id/interviews/:interviewId', () => {
  it('reschedules: a higher SEQUENCE to everyone, a CANCEL to whoever was removed, recorded', async () => {
    const interview = await schedule({ attendeeIds: [userIds['lead@acme.test'], userIds['member@acme.test']] });
    clearOutbox(t);
    const date = nextWeekday(NEW_YORK, 4);
    const res = await t.api({
      method: 'PATCH',
      url: interviewUrl(interview.id),
      cookie: consultant(),
      payload: { date, time: '14:30', durationMinutes: 90, attendeeIds: [userIds['lead@acme.test']] },
    });
    expect(res.statusCode).toBe(200);
    const startsAt = zonedToInstant(date, '14:30', NEW_YORK)!;
    expect(res.json()).toMatchObject({
      date,
      time: '14:30',
      durationMinutes: 90,
      startsAt: new Date(startsAt).toISOString(),
      attendees: [{ email: 'lead@acme.test' }],
      invitations: { sent: 4, failed: 0 },
    });
    const mails = readOutbox(t);
    const requests = mails.filter((m) => calendarOf(m).includes('METHOD:REQUEST'));
    expect(requests.map((m) => m.to).sort()).toEqual([
      'consultant@demo.test',
      'lead@acme.test',
      'nina.patel@demo.test',
    ]);
    for (const mail of requests) {
      const lines = calendarLines(calendarOf(mail));
      expect(mail.subject).toBe('Updated invitation: Access control walkthrough');
      expect(lines).toEqual(expect.arrayContaining([`UID:${interview.id}@portal.invalid`, 'SEQUENCE:1']));
      expect(lines).not.toContain(
        'ATTENDEE;CN="Marcus Bell";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:member@acme.test',
      );
    }
    const removed = mails.filter((m) => m.to === 'member@acme.test');
    expect(removed).toHaveLength(1);
    expect(calendarLines(calendarOf(removed[0]))).toEqual(
      expect.arrayContaining(['METHOD:CANCEL', 'SEQUENCE:1', `UID:${interview.id}@portal.invalid`, 'STATUS:CANCELLED']),
    );
    const [entry] = await auditRows(t, 'interview.update', interview.id);
    expect(entry).toMatchObject({
      before: { attendeeIds: expect.any(Array) },
      after: { startsAt: new Date(startsAt).toISOString(), attendeeIds: [userIds['lead@acme.test']] },
    });
    expect(entry.after).not.toHaveProperty('title');
  });

  it('applies the time rules again and stores nothing when they fail', async () => {
    const interview = await schedule();
    for (const [payload, code] of [
      [{ date: dateIn(NEW_YORK, 2, (d) => d === 6) }, 'interview_day_is_invalid'],
      [{ timeZone: '' }, 'no_timezone'],
      [{ timeZone: null }, 'no_timezone'],
      [{ date: dateIn(NEW_YORK, 64, weekday) }, 'max_interval_exceeded'],
      [{ organizerId: userIds['lead@acme.test'] }, 'invalid_meeting_organizer'],
      [{ interviewerIds: [userIds['member@acme.test']] }, 'invalid_meeting_argument'],
    ] as const) {
      const res = await t.api({ method: 'PATCH', url: interviewUrl(interview.id), cookie: consultant(), payload });
      expect({ payload, status: res.statusCode, code: res.json().code }).toEqual({ payload, status: 400, code });
    }
    const stored = await t.api({ method: 'GET', url: interviewUrl(interview.id), cookie: consultant() });
    expect(stored.json()).toMatchObject({
      date: interview.date,
      time: interview.time,
      organizer: { email: 'consultant@demo.test' },
    });
  });

  it('keeps both of two changes made one after the other, and both of two made at once', async () => {
    const interview = await schedule();
    const patch = (payload: Record<string, unknown>) =>
      t.api({ method: 'PATCH', url: interviewUrl(interview.id), cookie: consultant(), payload });
    expect((await patch({ title: 'First change' })).statusCode).toBe(200);
    expect((await patch({ time: '11:00' })).statusCode).toBe(200);
    const [title, time] = await Promise.all([
      patch({ title: 'Concurrent title' }),
      patch({ time: '12:00', location: 'Room 9' }),
    ]);
    expect([title.statusCode, time.statusCode]).toEqual([200, 200]);
    const stored = (
      await t.api({ method: 'GET', url: interviewUrl(interview.id), cookie: consultant() })
    ).json() as Interview;
    expect(stored).toMatchObject({ title: 'Concurrent title', time: '12:00', location: 'Room 9' });
    const row = await t.database.db
      .selectFrom('interviews')
      .select('sequence')
      .where('id', '=', interview.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.sequence)).toBe(4);
    // Each audit entry records what that change did to the interview as it found it.
    const entries = await auditRows(t, 'interview.update', interview.id);
    expect(entries.map((e) => Object.keys(e.after as object).sort())).toEqual(
      expect.arrayContaining([['title'], ['endsAt', 'startsAt'], ['endsAt', 'location', 'startsAt']]),
    );
  });

  it('mails no invitation to a suspended participant', async () => {
    const member = await newUser(t, { companyIds: [acmeId] });
    const interview = await schedule({ attendeeIds: [member.id] });
    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', member.id).execute();
    clearOutbox(t);
    const res = await t.api({
      method: 'PATCH',
      url: interviewUrl(interview.id),
      cookie: consultant(),
      payload: { time: '13:00' },
    });
    expect(res.json()).toMatchObject({ invitations: { sent: 2, failed: 0 } });
    expect(
      readOutbox(t)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['consultant@demo.test', 'nina.patel@demo.test']);
    const canceled = await t.api({
      method: 'POST',
      url: `${interviewUrl(interview.id)}/cancel`,
      cookie: consultant(),
      payload: {},
    });
    expect(canceled.json()).toMatchObject({ invitations: { sent: 2, failed: 0 } });
    expect(readOutbox(t).map((m) => m.to)).not.toContain(member.email);
  });

  it('changes nothing and mails nobody when nothing differs', async () => {
    const interview = await schedule();
    clearOutbox(t);
    const res = await t.api({
      method: 'PATCH',
      url: interviewUrl(interview.id),
      cookie: consultant(),
      payload: { title: interview.title, time: interview.time },
    });
    expect(res.json()).toMatchObject({ invitations: { sent: 0, failed: 0 }, updatedAt: interview.updatedAt });
    expect(readOutbox(t)).toEqual([]);
  });

  it('refuses an interview that has started with 409 interview_is_over, one of another project with 404', async () => {
    const started = await insertRow(projectId, Date.now() - 10 * 60_000);
    for (const [method, url, payload] of [
      ['PATCH', interviewUrl(started), { title: 'Late' }],
      ['POST', `${interviewUrl(started)}/cancel`, {}],
    ] as const) {
      const res = await t.api({ method, url, cookie: consultant(), payload });
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 409,
        code: 'interview_is_over',
      });
    }
    const elsewhere = await insertRow(otherProjectId, Date.now() + DAY);
    for (const [method, url] of [
      ['GET', interviewUrl(elsewhere)],
      ['PATCH', interviewUrl(elsewhere)],
      ['GET', `${interviewUrl(elsewhere)}/calendar.ics`],
      ['POST', `${interviewUrl('no-such-interview')}/cancel`],
    ] as const) {
      const res = await t.api({ method, url, cookie: consultant(), ...(method === 'GET' ? {} : { payload: {} }) });
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 404,
        code: 'interview_not_found',
      });
    }
  });

  it('refuses clients with 403', async () => {
    const interview = await schedule();
    for (const [method, url] of [
      ['PATCH', interviewUrl(interview.id)],
      ['POST', `${interviewUrl(interview.id)}/cancel`],
    ] as const) {
      const res = await t.api({ method, url, cookie: cookies['lead@acme.test'], payload: { title: 'Mine' } });
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 403,
        code: 'user_can_not_update_project',
      });
    }
  });
});

describe('invitations through a mail server that never answers', () => {
  it('replies within about ten seconds, counting the mails still going out as pending', async () => {
    const sockets = new Set<net.Socket>();
    // Accepts the connection and says nothing, ever.
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const s = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      const setup = await acmeProjectsSetup(
        s,
        ['Slow mail project', 'Slow mail other project'],
        ['consultant@demo.test'],
      );
      const started = Date.now();
      const res = await s.api({
        method: 'POST',
        url: interviewsUrl(setup.projectId),
        cookie: setup.cookies['consultant@demo.test'],
        payload: {
          ...validInput(),
          organizerId: setup.userIds['consultant@demo.test'],
          interviewerIds: [setup.userIds['nina.patel@demo.test']],
          attendeeIds: [setup.userIds['lead@acme.test']],
        },
      });
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(res.statusCode).toBe(201);
      const { invitations } = res.json() as Interview;
      expect(invitations).toEqual({ sent: 0, failed: 0, pending: 3 });
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await s.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 40_000);
});

describe('POST /api/v1/projects/:id/interviews/:interviewId/cancel', () => {
  it('cancels: METHOD:CANCEL with a higher SEQUENCE to everyone; a second change is refused with 409', async () => {
    const interview = await schedule();
    clearOutbox(t);
    const res = await t.api({
      method: 'POST',
      url: `${interviewUrl(interview.id)}/cancel`,
      cookie: consultant(),
      payload: { reason: 'Evidence already received' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'canceled',
      canceledAt: expect.any(String),
      invitations: { sent: 3, failed: 0 },
    });
    const mails = readOutbox(t);
    expect(mails.map((m) => m.to).sort()).toEqual(['consultant@demo.test', 'lead@acme.test', 'nina.patel@demo.test']);
    for (const mail of mails) {
      expect(mail.raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=CANCEL$/m);
      expect(mail.text).toContain('Reason: Evidence already received');
      expect(calendarLines(calendarOf(mail))).toEqual(
        expect.arrayContaining([
          'METHOD:CANCEL',
          'SEQUENCE:1',
          `UID:${interview.id}@portal.invalid`,
          'STATUS:CANCELLED',
        ]),
      );
    }
    const [entry] = await auditRows(t, 'interview.cancel', interview.id);
    expect(entry).toMatchObject({ after: { status: 'canceled', reason: 'Evidence already received' } });
    for (const [method, url, payload] of [
      ['POST', `${interviewUrl(interview.id)}/cancel`, {}],
      ['PATCH', interviewUrl(interview.id), { title: 'Back again' }],
    ] as const) {
      const again = await t.api({ method, url, cookie: consultant(), payload });
      expect({ url, status: again.statusCode, code: again.json().code }).toEqual({
        url,
        status: 409,
        code: 'interview_is_canceled',
      });
    }
    const canceled = (
      await t.api({ method: 'GET', url: `${interviewsUrl()}?when=canceled&pageSize=200`, cookie: consultant() })
    ).json() as InterviewList;
    expect(canceled.results.map((r) => r.id)).toContain(interview.id);
  });
});

describe('GET /api/v1/projects/:id/interviews/:interviewId/calendar.ics', () => {
  it('serves the current invitation as a text/calendar attachment, to readers too', async () => {
    const interview = await schedule({ title: 'Change management, review' });
    const res = await t.api({
      method: 'GET',
      url: `${interviewUrl(interview.id)}/calendar.ics`,
      cookie: cookies['member@acme.test'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="interview-[0-9a-f-]+\.ics"/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.endsWith('\r\n')).toBe(true);
    const lines = calendarLines(res.body.replace(/\r\n /g, ''));
    expect(lines).toEqual(
      expect.arrayContaining([
        'METHOD:REQUEST',
        'SEQUENCE:0',
        `UID:${interview.id}@portal.invalid`,
        'SUMMARY:Change management\\, review',
      ]),
    );
    // The address is on PUBLIC_URL (here the test's).
    expect(lines.filter((l) => l.startsWith('URL:'))).toEqual([
      expect.stringMatching(new RegExp(`^URL:${t.config.publicUrl}/v2/projects/`)),
    ]);

    await t.api({ method: 'POST', url: `${interviewUrl(interview.id)}/cancel`, cookie: consultant(), payload: {} });
    const canceled = await t.api({
      method: 'GET',
      url: `${interviewUrl(interview.id)}/calendar.ics`,
      cookie: consultant(),
    });
    expect(calendarLines(canceled.body)).toEqual(
      expect.arrayContaining(['METHOD:CANCEL', 'SEQUENCE:1', 'STATUS:CANCELLED']),
    );
  });
});

describe('interviews with Microsoft Graph configured', () => {
  let graph: FakeGraph;
  let g: TestApp;
  let gCookie: string;
  let gUsers: Record<string, string>;
  let gProject: string;

  beforeAll(async () => {
    graph = await startFakeGraph();
    g = await createTestApp({
      env: { ...graph.env({ subscriptions: true }), PUBLIC_URL: 'https://portal.example.com' },
    });
    const setup = await acmeProjectsSetup(g, ['Graph project', 'Graph other project'], ['consultant@demo.test']);
    gCookie = setup.cookies['consultant@demo.test'];
    gUsers = setup.userIds;
    gProject = setup.projectId;
  });
  afterAll(async () => {
    await g.close();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const gInput = (overrides: Record<string, unknown> = {}) => ({
    ...validInput(overrides),
    organizerId: gUsers['consultant@demo.test'],
    interviewerIds: [gUsers['nina.patel@demo.test']],
    attendeeIds: [gUsers['lead@acme.test']],
    ...overrides,
  });

  async function gCount(): Promise<number> {
    const row = await g.database.db
      .selectFrom('interviews')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it("makes the meeting in the organizer's calendar, stores it, then reschedules and cancels it there", async () => {
    clearOutbox(g);
    const res = await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() });
    expect(res.statusCode).toBe(201);
    const interview = res.json() as Interview;
    const [event] = [...graph.events.values()];
    expect(event).toMatchObject({
      subject: 'Access control walkthrough',
      isOnlineMeeting: true,
      start: { dateTime: `${interview.date}T10:00:00`, timeZone: NEW_YORK },
      attendees: expect.arrayContaining([
        expect.objectContaining({ emailAddress: { address: 'lead@acme.test', name: 'Laura Chen' } }),
      ]),
    });
    expect(interview.onlineMeetingUrl).toBe(`https://teams.example.test/meet/${event.id as string}`);
    const row = await g.database.db
      .selectFrom('interviews')
      .select(['graph_event_id', 'graph_subscription_id', 'online_meeting_url'])
      .where('id', '=', interview.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      graph_event_id: event.id,
      graph_subscription_id: expect.stringMatching(/^subscription-/),
      online_meeting_url: interview.onlineMeetingUrl,
    });
    // The invitation mail carries the meeting link and the project's address.
    const lines = calendarLines(calendarOf(readOutbox(g)[0]));
    expect(lines).toContain(`URL:https://portal.example.com/v2/projects/${gProject}?view=interviews`);
    expect(readOutbox(g)[0].text).toContain(`https://portal.example.com/v2/projects/${gProject}?view=interviews`);
    expect(JSON.stringify(event.body)).toContain(`https://portal.example.com/v2/projects/${gProject}?view=interviews`);
    expect(lines.find((l) => l.startsWith('DESCRIPTION:'))).toContain(interview.onlineMeetingUrl);

    const moved = await g.api({
      method: 'PATCH',
      url: interviewUrl(interview.id, gProject),
      cookie: gCookie,
      payload: { time: '15:00' },
    });
    expect(moved.statusCode).toBe(200);
    expect(graph.events.get(event.id as string)).toMatchObject({
      start: { dateTime: `${interview.date}T15:00:00`, timeZone: NEW_YORK },
    });

    const canceled = await g.api({
      method: 'POST',
      url: `${interviewUrl(interview.id, gProject)}/cancel`,
      cookie: gCookie,
      payload: { reason: 'Done' },
    });
    expect(canceled.statusCode).toBe(200);
    expect(graph.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      `POST /users/graph-user-consultant@demo.test/events/${event.id as string}/cancel`,
    );
    expect(graph.events.size).toBe(0);
  });

  it.each([
    ['token', 500, 503, 'unable_to_start_graph_client'],
    ['user', 404, 400, 'graph_user_not_found'],
    ['user', 500, 503, 'fail_to_schedule_interview'],
    ['create', 500, 503, 'cant_schedule_meeting'],
    ['subscription', 500, 503, 'fail_to_create_subscription'],
  ] as const)(
    'answers a %s failure (%i) with %i %s and stores and mails nothing',
    async (step, status, expected, code) => {
      if (step === 'user' && status === 404) graph.unknownUsers.add('consultant@demo.test');
      else graph.failures[step] = status;
      clearOutbox(g);
      const before = await gCount();
      const res = await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: expected, code });
      expect(await gCount()).toBe(before);
      expect(readOutbox(g)).toEqual([]);
      // A meeting made before the failing subscription is deleted again.
      expect(graph.events.size).toBe(0);
    },
  );

  it('keeps the interview as it was when Graph refuses a reschedule or a cancel', async () => {
    const interview = (
      await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() })
    ).json() as Interview;
    graph.failures.update = 500;
    graph.failures.cancel = 500;
    clearOutbox(g);
    const moved = await g.api({
      method: 'PATCH',
      url: interviewUrl(interview.id, gProject),
      cookie: gCookie,
      payload: { time: '16:00' },
    });
    expect({ status: moved.statusCode, code: moved.json().code }).toEqual({
      status: 503,
      code: 'fail_to_schedule_interview',
    });
    const canceled = await g.api({
      method: 'POST',
      url: `${interviewUrl(interview.id, gProject)}/cancel`,
      cookie: gCookie,
      payload: {},
    });
    expect({ status: canceled.statusCode, code: canceled.json().code }).toEqual({
      status: 503,
      code: 'fail_to_schedule_interview',
    });
    const stored = (
      await g.api({ method: 'GET', url: interviewUrl(interview.id, gProject), cookie: gCookie })
    ).json() as Interview;
    expect(stored).toMatchObject({ status: 'scheduled', time: '10:00' });
    expect(readOutbox(g)).toEqual([]);
  });

  it('puts the Graph meeting back when the reschedule cannot be stored', async () => {
    const interview = (
      await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() })
    ).json() as Interview;
    const [eventId] = [...graph.events.keys()];
    const spy = jest.spyOn(auditLog, 'insertAuditRecord').mockRejectedValueOnce(new Error('database went away'));
    try {
      const moved = await g.api({
        method: 'PATCH',
        url: interviewUrl(interview.id, gProject),
        cookie: gCookie,
        payload: { time: '16:00' },
      });
      expect(moved.statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(graph.events.get(eventId)).toMatchObject({
      start: { dateTime: `${interview.date}T10:00:00`, timeZone: NEW_YORK },
    });
    expect(graph.requests.filter((r) => r.method === 'PATCH')).toHaveLength(2);
    const stored = (
      await g.api({ method: 'GET', url: interviewUrl(interview.id, gProject), cookie: gCookie })
    ).json() as Interview;
    expect(stored).toMatchObject({ status: 'scheduled', time: '10:00' });
  });

  it('does not tell Graph about a change the interview refuses (canceled meanwhile)', async () => {
    const interview = (
      await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() })
    ).json() as Interview;
    await g.database.db.updateTable('interviews').set({ status: 'canceled' }).where('id', '=', interview.id).execute();
    graph.requests.length = 0;
    for (const [method, url, payload] of [
      ['PATCH', interviewUrl(interview.id, gProject), { time: '16:00' }],
      ['POST', `${interviewUrl(interview.id, gProject)}/cancel`, {}],
    ] as const) {
      const res = await g.api({ method, url, cookie: gCookie, payload });
      expect(res.json()).toMatchObject({ code: 'interview_is_canceled' });
    }
    expect(graph.requests).toEqual([]);
  });

  it('cancels in the portal an interview whose organizer Graph no longer knows, or whose meeting is gone', async () => {
    for (const lose of ['user', 'event'] as const) {
      const interview = (
        await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() })
      ).json() as Interview;
      if (lose === 'user') graph.unknownUsers.add('consultant@demo.test');
      else graph.events.clear();
      const res = await g.api({
        method: 'POST',
        url: `${interviewUrl(interview.id, gProject)}/cancel`,
        cookie: gCookie,
        payload: {},
      });
      expect({ lose, status: res.statusCode, body: res.json() }).toMatchObject({
        lose,
        status: 200,
        body: { status: 'canceled', invitations: { sent: 3, failed: 0 } },
      });
      graph.reset();
    }
  });

  it('makes a new meeting when the old one was deleted in Outlook', async () => {
    const interview = (
      await g.api({ method: 'POST', url: interviewsUrl(gProject), cookie: gCookie, payload: gInput() })
    ).json() as Interview;
    graph.events.clear();
    const moved = await g.api({
      method: 'PATCH',
      url: interviewUrl(interview.id, gProject),
      cookie: gCookie,
      payload: { time: '15:00' },
    });
    expect(moved.statusCode).toBe(200);
    const [event] = [...graph.events.values()];
    expect(event).toMatchObject({ start: { dateTime: `${interview.date}T15:00:00`, timeZone: NEW_YORK } });
    const row = await g.database.db
      .selectFrom('interviews')
      .select(['graph_event_id', 'graph_subscription_id'])
      .where('id', '=', interview.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ graph_event_id: event.id, graph_subscription_id: expect.stringMatching(/^subscription-/) });
    expect((moved.json() as Interview).onlineMeetingUrl).toBe(`https://teams.example.test/meet/${event.id as string}`);
  });

  it('invites neither by mail nor through Graph a suspended participant', async () => {
    const member = await newUser(g, {
      companyIds: [
        (
          await g.database.db
            .selectFrom('projects')
            .select('company_id')
            .where('id', '=', gProject)
            .executeTakeFirstOrThrow()
        ).company_id,
      ],
    });
    const interview = (
      await g.api({
        method: 'POST',
        url: interviewsUrl(gProject),
        cookie: gCookie,
        payload: gInput({ attendeeIds: [gUsers['lead@acme.test'], member.id] }),
      })
    ).json() as Interview;
    await g.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', member.id).execute();
    clearOutbox(g);
    const moved = await g.api({
      method: 'PATCH',
      url: interviewUrl(interview.id, gProject),
      cookie: gCookie,
      payload: { time: '15:00' },
    });
    expect(moved.json()).toMatchObject({ invitations: { sent: 3, failed: 0 } });
    expect(readOutbox(g).map((m) => m.to)).not.toContain(member.email);
    const patched = graph.requests.filter((r) => r.method === 'PATCH').pop()!;
    expect(JSON.stringify(patched.body)).not.toContain(member.email);
  });
});

describe('the demo data', () => {
  it('holds one upcoming interview on Acme SOC 2 Type II 2026, on a weekday in its zone', async () => {
    const project = await t.database.db
      .selectFrom('projects')
      .select('id')
      .where('title', '=', 'Acme SOC 2 Type II 2026')
      .executeTakeFirstOrThrow();
    const res = await t.api({ method: 'GET', url: interviewsUrl(project.id), cookie: consultant() });
    const list = res.json() as InterviewList;
    expect(list.total).toBe(1);
    const [interview] = list.results;
    expect(interview).toMatchObject({
      status: 'scheduled',
      organizer: { email: 'consultant@demo.test' },
      attendees: [{ email: 'lead@acme.test' }],
    });
    expect(weekday(new Date(`${interview.date}T00:00:00Z`).getUTCDay())).toBe(true);
    expect(Date.parse(interview.startsAt)).toBeGreaterThan(Date.now());
    // Its invitation can be downloaded like any other.
    const ics = await t.api({
      method: 'GET',
      url: `${interviewUrl(interview.id, project.id)}/calendar.ics`,
      cookie: cookies['lead@acme.test'],
    });
    expect(ics.body).toContain(`UID:${interview.id}@portal.invalid`);
  });
});
