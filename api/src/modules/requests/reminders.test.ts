import { randomUUID } from 'node:crypto';
import { addCompanyMember, insertCompany } from '../../db/companies';
import { setUserModuleAccess } from '../../db/module-access';
import { buildApp } from '../../app';
import { createTestApp, type TestApp } from '../../test/app';
import { newCompany, newUser } from '../../test/project-fixtures';
import {
  bellsOf,
  eventually,
  insertTestRequest,
  mailsTo,
  newTeam,
  type TestRequest,
} from '../../test/evidence-fixtures';
import { markRequestRemindersSent } from './reminder-targets';
import { sweepRequestReminders } from './reminders';

const PUBLIC_URL = 'https://portal.example.test';
/** Far from the real day, so the sweep the app runs at start finds none of these requests due. */
const NOW = new Date('2031-03-10T08:00:00Z');
const NEXT_DAY = new Date('2031-03-11T00:30:00Z');

let t: TestApp;
let companyId: string;
const companyName = `Reminders ${randomUUID()}`;
type User = { id: string; email: string };

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  companyId = await newCompany(t, companyName);
});
afterAll(() => t.close());

const link = (r: TestRequest) => `/requests/${r.id}`;
const titles = async (user: User, r: TestRequest) => (await bellsOf(t, user.id, link(r))).map((b) => b.title);
const wantsDigest = (user: User) =>
  t.database.db.updateTable('users').set({ send_daily_emails: true }).where('id', '=', user.id).execute();

describe('reminders', () => {
  it('tells assignees of requests due soon and everyone concerned of overdue ones, once per due date', async () => {
    const stella = await newUser(t, { isTevora: true, firstName: 'Stella' });
    const ann = await newUser(t, { companyIds: [companyId], firstName: 'Ann' });
    const tina = await newUser(t, { companyIds: [companyId], firstName: 'Tina' });
    const gone = await newUser(t, { companyIds: [companyId], status: 'suspended' });
    const off = await newUser(t, { companyIds: [companyId] });
    await setUserModuleAccess(t.database.db, companyId, off.id, 'requests', false);
    const team = await newTeam(t, companyId, [tina.id]);
    const base = { companyId, requesterId: stella.id, assigneeIds: [ann.id, gone.id, off.id] };
    const today = await insertTestRequest(t, { ...base, title: 'Due today', dueDate: '2031-03-10', teamIds: [team] });
    const inThree = await insertTestRequest(t, {
      ...base,
      title: 'In three',
      dueDate: '2031-03-13',
      status: 'returned',
    });
    const inFour = await insertTestRequest(t, { ...base, title: 'In four', dueDate: '2031-03-14' });
    const inReview = await insertTestRequest(t, {
      ...base,
      title: 'In review',
      dueDate: '2031-03-11',
      status: 'submitted',
    });
    const late = await insertTestRequest(t, { ...base, title: 'Late', dueDate: '2031-03-01' });
    const lateInReview = await insertTestRequest(t, {
      ...base,
      title: 'Late in review',
      dueDate: '2031-03-02',
      status: 'submitted',
    });
    const done = await insertTestRequest(t, { ...base, title: 'Done', dueDate: '2031-03-01', status: 'accepted' });

    await sweepRequestReminders(t.app, NOW);
    expect(await titles(ann, today)).toEqual([`${today.reference} is due today: Due today`]);
    expect(await titles(tina, today)).toEqual([`${today.reference} is due today: Due today`]);
    expect(await titles(ann, inThree)).toEqual([`${inThree.reference} is due in 3 days: In three`]);
    expect(await titles(ann, inFour)).toEqual([]);
    expect(await titles(ann, inReview)).toEqual([]);
    expect(await titles(ann, late)).toEqual([`${late.reference} is overdue: Late`]);
    expect(await titles(ann, lateInReview)).toEqual([`${lateInReview.reference} is overdue: Late in review`]);
    expect(await titles(ann, done)).toEqual([]);
    // Due soon is the assignees' business; overdue the requester's too.
    const stellaBells = await bellsOf(t, stella.id);
    expect(stellaBells).toHaveLength(2);
    expect(stellaBells).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          title: `${late.reference} is overdue: Late`,
          body: 'It was due 3/1/2031',
          link: link(late),
          company_id: companyId,
        }),
        expect.objectContaining({ title: `${lateInReview.reference} is overdue: Late in review` }),
      ]),
    );
    expect(await bellsOf(t, gone.id)).toEqual([]);
    expect(await bellsOf(t, off.id)).toEqual([]);
    // Who cannot be told is handled all the same: claimed, so later sweeps do not look at them again.
    const offClaims = await t.database.db
      .selectFrom('request_reminders')
      .select(['request_id', 'kind'])
      .where('user_id', '=', off.id)
      .execute();
    expect(offClaims.map((c) => [c.request_id, c.kind]).sort()).toEqual(
      [
        [today.id, 'due_soon'],
        [inThree.id, 'due_soon'],
        [late.id, 'overdue'],
        [lateInReview.id, 'overdue'],
      ].sort(),
    );
    expect(mailsTo(t, off.email)).toEqual([]);
    const overdueMail = mailsTo(t, ann.email, `${late.reference} is overdue: Late`);
    expect(overdueMail).toHaveLength(1);
    expect(overdueMail[0].text.trim()).toBe(`It was due 3/1/2031\n\nOpen it: ${PUBLIC_URL}/requests/${late.id}`);

    // Again the same day: nothing new.
    const bellCount = (await bellsOf(t, ann.id)).length;
    const mailCount = mailsTo(t, ann.email).length;
    await sweepRequestReminders(t.app, NOW);
    expect((await bellsOf(t, ann.id)).length).toBe(bellCount);
    expect(mailsTo(t, ann.email)).toHaveLength(mailCount);

    // The next day: what became due soon or overdue since, and nothing else.
    await sweepRequestReminders(t.app, NEXT_DAY);
    expect(
      (await bellsOf(t, ann.id))
        .slice(bellCount)
        .map((b) => b.title)
        .sort(),
    ).toEqual([`${inFour.reference} is due in 3 days: In four`, `${today.reference} is overdue: Due today`].sort());

    // A new due date is a new reminder.
    await t.database.db.updateTable('requests').set({ due_date: '2031-03-12' }).where('id', '=', inFour.id).execute();
    await sweepRequestReminders(t.app, NEXT_DAY);
    expect((await titles(ann, inFour)).sort()).toEqual([
      `${inFour.reference} is due in 1 day: In four`,
      `${inFour.reference} is due in 3 days: In four`,
    ]);
    expect(
      await t.database.db
        .selectFrom('request_reminders')
        .select(['kind', 'due_date'])
        .where('request_id', '=', inFour.id)
        .where('user_id', '=', ann.id)
        .orderBy('due_date')
        .execute(),
    ).toEqual([
      { kind: 'due_soon', due_date: '2031-03-12' },
      { kind: 'due_soon', due_date: '2031-03-14' },
    ]);
  });
});

describe('markRequestRemindersSent (the demo seed)', () => {
  it('records the reminders of the day as sent without sending them, so the sweep sends none', async () => {
    const gil = await newUser(t, { companyIds: [companyId], firstName: 'Gil' });
    const day = new Date('2032-06-01T10:00:00Z');
    const late = await insertTestRequest(t, {
      companyId,
      title: 'Seeded late',
      dueDate: '2032-05-20',
      assigneeIds: [gil.id],
    });
    const soon = await insertTestRequest(t, {
      companyId,
      title: 'Seeded soon',
      dueDate: '2032-06-02',
      assigneeIds: [gil.id],
    });
    expect(await markRequestRemindersSent(t.database.db, '2032-06-01')).toBeGreaterThanOrEqual(2);
    expect(
      await t.database.db
        .selectFrom('request_reminders')
        .select(['kind', 'due_date'])
        .where('user_id', '=', gil.id)
        .orderBy('due_date')
        .execute(),
    ).toEqual([
      { kind: 'overdue', due_date: '2032-05-20' },
      { kind: 'due_soon', due_date: '2032-06-02' },
    ]);
    await sweepRequestReminders(t.app, day);
    expect(await bellsOf(t, gil.id)).toEqual([]);
    expect(mailsTo(t, gil.email)).toEqual([]);
    // A later due date is a new reminder all the same.
    await t.database.db.updateTable('requests').set({ due_date: '2032-06-03' }).where('id', '=', soon.id).execute();
    await sweepRequestReminders(t.app, day);
    expect(await titles(gil, soon)).toEqual([`${soon.reference} is due in 2 days: Seeded soon`]);
    expect(await titles(gil, late)).toEqual([]);
  });
});

describe('daily digest', () => {
  it('mails each user who asked for it their open requests once a day, per company, with links', async () => {
    const stella = await newUser(t, { isTevora: true, firstName: 'Stella' });
    const dora = await newUser(t, { companyIds: [companyId], firstName: 'Dora' });
    const eve = await newUser(t, { companyIds: [companyId], firstName: 'Eve' });
    await wantsDigest(stella);
    await wantsDigest(dora);
    // A company with requests turned off: its requests stay out of the digest.
    const closedCompany = await insertCompany(t.database.db, {
      name: `No requests ${randomUUID()}`,
      modulesAccess: { risks: true, projects: true, requests: false, reports: true, assets: true },
    });
    await addCompanyMember(t.database.db, closedCompany, dora.id, 'member');

    const assigned = { companyId, requesterId: stella.id, assigneeIds: [dora.id, eve.id] };
    const late = await insertTestRequest(t, { ...assigned, title: 'Late one', dueDate: '2031-03-01' });
    const soon = await insertTestRequest(t, {
      ...assigned,
      title: 'Soon one',
      dueDate: '2031-03-12',
      status: 'returned',
    });
    const open = await insertTestRequest(t, { ...assigned, title: 'Open one' });
    const review = await insertTestRequest(t, { ...assigned, title: 'In review', status: 'submitted' });
    await insertTestRequest(t, { ...assigned, title: 'Accepted one', status: 'accepted' });
    await insertTestRequest(t, { companyId: closedCompany, title: 'Hidden one', assigneeIds: [dora.id] });

    const subject = 'Your requests for 3/10/2031';
    await sweepRequestReminders(t.app, NOW);
    const [mail, ...more] = mailsTo(t, dora.email, subject);
    expect(more).toEqual([]);
    expect(mail.text).toContain('Hello Dora,');
    expect(mail.text).toContain(`${companyName}\n\nOverdue:`);
    expect(mail.text).toContain(
      ['Overdue:', `- ${late.reference} Late one (Open, due 3/1/2031): ${PUBLIC_URL}/requests/${late.id}`].join('\n'),
    );
    expect(mail.text).toContain(
      ['Due soon:', `- ${soon.reference} Soon one (Returned, due 3/12/2031): ${PUBLIC_URL}/requests/${soon.id}`].join(
        '\n',
      ),
    );
    expect(mail.text).toContain(
      ['Other open requests:', `- ${open.reference} Open one (Open): ${PUBLIC_URL}/requests/${open.id}`].join('\n'),
    );
    expect(mail.text.indexOf('Overdue:')).toBeLessThan(mail.text.indexOf('Due soon:'));
    expect(mail.text).not.toContain('In review');
    expect(mail.text).not.toContain('Accepted one');
    expect(mail.text).not.toContain('Hidden one');
    expect(mail.text).not.toContain('No requests');

    // Staff: what they requested and is still active, submitted ones included.
    const [staffMail] = mailsTo(t, stella.email, subject);
    expect(staffMail.text).toContain(`${review.reference} In review (Submitted)`);
    expect(staffMail.text).toContain(`${late.reference} Late one`);
    // Eve did not ask for daily e-mails.
    expect(mailsTo(t, eve.email, subject)).toEqual([]);

    // Once a day.
    await sweepRequestReminders(t.app, new Date('2031-03-10T23:59:00Z'));
    expect(mailsTo(t, dora.email, subject)).toHaveLength(1);
    await sweepRequestReminders(t.app, NEXT_DAY);
    expect(mailsTo(t, dora.email, 'Your requests for 3/11/2031')).toHaveLength(1);
    expect(mailsTo(t, dora.email, subject)).toHaveLength(1);
  });

  it('sends nothing to a user whose open requests are all out of reach', async () => {
    const fay = await newUser(t, { companyIds: [companyId], firstName: 'Fay' });
    await wantsDigest(fay);
    await insertTestRequest(t, { companyId, title: 'Fay one', assigneeIds: [fay.id] });
    await setUserModuleAccess(t.database.db, companyId, fay.id, 'requests', false);
    await sweepRequestReminders(t.app, NOW);
    expect(mailsTo(t, fay.email)).toEqual([]);
    const claims = await t.database.db
      .selectFrom('request_digests')
      .select('day')
      .where('user_id', '=', fay.id)
      .execute();
    expect(claims).toEqual([]);
  });
});

describe('the sweep in the background', () => {
  it('runs at start when REQUEST_REMINDER_MINUTES is set, never holding start-up, and closing waits for its mail', async () => {
    // The test app sweeps never (REQUEST_REMINDER_MINUTES=0): a second app on its database sweeps now.
    const hal = await newUser(t, { companyIds: [companyId], firstName: 'Hal' });
    const realToday = new Date().toISOString().slice(0, 10);
    const due = await insertTestRequest(t, {
      companyId,
      title: 'Due for real',
      dueDate: realToday,
      assigneeIds: [hal.id],
    });
    const app = buildApp({ db: t.database.db, config: { ...t.config, requestReminderMinutes: 60 } });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // once the plugins have loaded (plugins/app/mailer.ts decorates app.mailer), before the app is ready
    app.after(() => {
      const send = app.mailer.send.bind(app.mailer);
      app.mailer.send = async (mail) => {
        await held;
        return send(mail);
      };
    });
    try {
      // Ready while the mail server has not answered.
      await app.ready();
      await eventually(async () => (await titles(hal, due)).length > 0);
      expect(await titles(hal, due)).toEqual([`${due.reference} is due today: Due for real`]);
      expect(mailsTo(t, hal.email)).toEqual([]);
      setTimeout(release, 100);
      await app.close();
      expect(mailsTo(t, hal.email).map((m) => m.subject)).toEqual([`${due.reference} is due today: Due for real`]);
    } finally {
      release();
      await app.close();
    }
  });
});
