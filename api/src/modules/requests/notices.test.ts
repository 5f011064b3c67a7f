import { randomUUID } from 'node:crypto';
import { setUserModuleAccess } from '../../db/module-access';
import { createTestApp, type TestApp } from '../../test/app';
import { clearOutbox, readOutbox } from '../../test/identity';
import { newCompany, newUser } from '../../test/project-fixtures';
import {
  bellsOf,
  insertTestRequest,
  mailsTo,
  newTeam,
  setRequestStatus,
  type TestRequest,
} from '../../test/evidence-fixtures';
import {
  closeRequestDeliveries,
  deliverRequestNotices,
  queueRequestNotices,
  requestParticipants,
  type RequestNotice,
} from './notices';

const PUBLIC_URL = 'https://portal.example.test';

let t: TestApp;
let companyId: string;
type User = { id: string; email: string };
let staff: User;
let otherStaff: User;
let ann: User;
let ben: User;
let suspended: User;
let revoked: User;
let moduleOff: User;
let bystander: User;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  companyId = await newCompany(t, `Notices ${randomUUID()}`);
  staff = await newUser(t, { isTevora: true, firstName: 'Stella' });
  otherStaff = await newUser(t, { isTevora: true, firstName: 'Oscar' });
  ann = await newUser(t, { companyIds: [companyId], firstName: 'Ann' });
  ben = await newUser(t, { companyIds: [companyId], firstName: 'Ben' });
  suspended = await newUser(t, { companyIds: [companyId], status: 'suspended' });
  revoked = await newUser(t, { companyIds: [companyId] });
  await t.database.db
    .updateTable('company_memberships')
    .set({ access_revoked_at: new Date().toISOString() })
    .where('user_id', '=', revoked.id)
    .execute();
  moduleOff = await newUser(t, { companyIds: [companyId] });
  await setUserModuleAccess(t.database.db, companyId, moduleOff.id, 'requests', false);
  bystander = await newUser(t, { companyIds: [companyId] });
});
afterAll(() => t.close());

const queue = (notices: RequestNotice[]) =>
  t.database.db.transaction().execute((trx) => queueRequestNotices(trx, notices));
const link = (r: TestRequest) => `/requests/${r.id}`;
const ref = (r: TestRequest) => ({ id: r.id, companyId: r.companyId, reference: r.reference, title: r.title });

describe('queueRequestNotices', () => {
  it('tells the people who still see the request, never the actor, suspended users, revoked members or users without the module', async () => {
    const everyone = [ann, ben, suspended, revoked, moduleOff, bystander, staff];
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Firewall review',
      dueDate: '2031-04-05',
      requesterId: staff.id,
      assigneeIds: [ann.id, suspended.id, revoked.id, moduleOff.id],
    });
    clearOutbox(t);
    const pending = await queue([
      { kind: 'assigned', request: ref(request), actorId: staff.id, userIds: everyone.map((u) => u.id) },
    ]);
    // The bystander is a member without the request assigned: they do not see it.
    expect(pending.userIds).toEqual([ann.id]);
    expect(await bellsOf(t, ann.id, link(request))).toEqual([
      {
        title: `New request ${request.reference}: Firewall review`,
        body: 'Stella Tester asked for evidence, due 4/5/2031',
        link: link(request),
        company_id: companyId,
      },
    ]);
    for (const user of [ben, suspended, revoked, moduleOff, bystander, staff])
      expect(await bellsOf(t, user.id, link(request))).toEqual([]);

    await deliverRequestNotices(t.app, t.app.log, pending);
    const mails = mailsTo(t, ann.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`New request ${request.reference}: Firewall review`);
    expect(mails[0].text.trim()).toBe(
      `Stella Tester asked for evidence, due 4/5/2031\n\nOpen it: ${PUBLIC_URL}/requests/${request.id}`,
    );
    expect(mailsTo(t, staff.email)).toEqual([]);
  });

  it('reaches team members, and says nothing of a due date the request does not have', async () => {
    const team = await newTeam(t, companyId, [ben.id]);
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Badge list',
      requesterId: staff.id,
      teamIds: [team],
    });
    const pending = await queue([{ kind: 'created', request: ref(request), actorId: staff.id, userIds: [ben.id] }]);
    expect(pending.userIds).toEqual([ben.id]);
    expect(await bellsOf(t, ben.id, link(request))).toEqual([
      expect.objectContaining({
        title: `New request ${request.reference}: Badge list`,
        body: 'Stella Tester asked for evidence',
      }),
    ]);
  });

  it('words each status change with who made it', async () => {
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Access review',
      requesterId: staff.id,
      assigneeIds: [ann.id],
    });
    const cases: [
      status: Parameters<typeof setRequestStatus>[2],
      reason: string | null,
      actor: User,
      to: User,
      title: string,
      body: string,
    ][] = [
      ['submitted', null, ann, staff, `${request.reference} Submitted: Access review`, 'Submitted by Ann Tester'],
      [
        'returned',
        'Page 2 is missing',
        staff,
        ann,
        `${request.reference} Returned: Access review`,
        'Returned by Stella Tester: Page 2 is missing',
      ],
      ['accepted', null, staff, ann, `${request.reference} Accepted: Access review`, 'Accepted by Stella Tester'],
      ['open', null, staff, ann, `${request.reference} Open: Access review`, 'Reopened by Stella Tester'],
      ['canceled', null, staff, ann, `${request.reference} Canceled: Access review`, 'Canceled by Stella Tester'],
    ];
    for (const [status, reason, actor, to, title, body] of cases) {
      await setRequestStatus(t, request.id, status, reason);
      const pending = await queue([
        { kind: 'status', request: ref(request), actorId: actor.id, userIds: [staff.id, ann.id] },
      ]);
      expect(pending.userIds).toEqual([to.id]);
      expect(await bellsOf(t, to.id, link(request))).toEqual(
        expect.arrayContaining([expect.objectContaining({ title, body })]),
      );
    }
  });

  it('names an actor without a name by their e-mail', async () => {
    const nameless = await newUser(t, { isTevora: true });
    await t.database.db
      .updateTable('users')
      .set({ first_name: '', last_name: '' })
      .where('id', '=', nameless.id)
      .execute();
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Nameless',
      requesterId: nameless.id,
      assigneeIds: [ann.id],
    });
    await queue([{ kind: 'assigned', request: ref(request), actorId: nameless.id, userIds: [ann.id] }]);
    expect(await bellsOf(t, ann.id, link(request))).toEqual([
      expect.objectContaining({ body: `${nameless.email} asked for evidence` }),
    ]);
  });

  it('sends internal comments to staff alone, with the first 200 characters', async () => {
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Vendor list',
      requesterId: staff.id,
      assigneeIds: [ann.id],
    });
    const text = `${'x'.repeat(199)}yz and more`;
    const pending = await queue([
      {
        kind: 'comment',
        request: ref(request),
        actorId: otherStaff.id,
        userIds: [staff.id, ann.id, otherStaff.id],
        staffOnly: true,
        summary: text,
      },
    ]);
    expect(pending.userIds).toEqual([staff.id]);
    expect(await bellsOf(t, staff.id, link(request))).toEqual([
      expect.objectContaining({
        title: `New comment on ${request.reference}: Vendor list`,
        body: `${'x'.repeat(199)}y`,
      }),
    ]);
    expect(await bellsOf(t, ann.id, link(request))).toEqual([]);
  });

  it('counts the days left of a due-soon reminder from the given day, and words overdue', async () => {
    const request = await insertTestRequest(t, {
      companyId,
      title: 'Policies',
      dueDate: '2031-05-10',
      assigneeIds: [ann.id],
    });
    const titles: string[] = [];
    for (const today of ['2031-05-10', '2031-05-09', '2031-05-07']) {
      await queue([{ kind: 'due_soon', request: ref(request), actorId: null, userIds: [ann.id], today }]);
    }
    await queue([{ kind: 'overdue', request: ref(request), actorId: null, userIds: [ann.id] }]);
    for (const bell of await bellsOf(t, ann.id, link(request))) titles.push(`${bell.title} | ${bell.body}`);
    expect(titles.sort()).toEqual(
      [
        `${request.reference} is due today: Policies | Due 5/10/2031`,
        `${request.reference} is due in 1 day: Policies | Due 5/10/2031`,
        `${request.reference} is due in 3 days: Policies | Due 5/10/2031`,
        `${request.reference} is overdue: Policies | It was due 5/10/2031`,
      ].sort(),
    );
  });
});

describe('deliverRequestNotices', () => {
  it('logs a mail that fails and still sends the others, without throwing', async () => {
    const send = t.app.mailer.send;
    const sent: string[] = [];
    t.app.mailer.send = async (mail) => {
      if (mail.to === 'broken@example.test') throw new Error('mailbox unavailable');
      sent.push(mail.to);
      return { messageId: 'x', file: null };
    };
    try {
      await expect(
        deliverRequestNotices(t.app, t.app.log, {
          userIds: [ann.id],
          mails: [
            { to: 'broken@example.test', subject: 'S', body: 'B', path: '/requests/1' },
            { to: 'fine@example.test', subject: 'S', body: 'B', path: '/requests/1' },
          ],
        }),
      ).resolves.toBeUndefined();
    } finally {
      t.app.mailer.send = send;
    }
    expect(sent).toEqual(['fine@example.test']);
  });
});

describe('closing the app', () => {
  it('waits for notices still going out, and gives up on a mail server that does not answer', async () => {
    const other = await createTestApp();
    try {
      const send = other.app.mailer.send.bind(other.app.mailer);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      other.app.mailer.send = async (mail) => {
        await held;
        return send(mail);
      };
      const mail = { to: 'late@example.test', subject: 'Held', body: 'B', path: '/requests/1' };
      // Started as the routes start them: in the background, nobody waiting.
      void deliverRequestNotices(other.app, other.app.log, { userIds: [], mails: [mail] });

      const started = Date.now();
      await closeRequestDeliveries(other.app, 100);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(readOutbox(other).filter((m) => m.to.includes(mail.to))).toEqual([]);

      // Closing waits for it: the mail leaves before the app is gone.
      setTimeout(release, 100);
      await other.app.close();
      expect(readOutbox(other).filter((m) => m.to.includes(mail.to))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('requestParticipants', () => {
  it('gives the requester and the assignees with team members, active users only', async () => {
    const carl = await newUser(t, { companyIds: [companyId] });
    const team = await newTeam(t, companyId, [ben.id, carl.id, suspended.id]);
    const request = await insertTestRequest(t, {
      companyId,
      requesterId: staff.id,
      assigneeIds: [ann.id, ben.id, suspended.id],
      teamIds: [team],
    });
    const people = await requestParticipants(t.database.db, request.id);
    expect(people.requesterId).toBe(staff.id);
    expect([...people.assigneeIds].sort()).toEqual([ann.id, ben.id, carl.id].sort());

    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', otherStaff.id).execute();
    const byGone = await insertTestRequest(t, { companyId, requesterId: otherStaff.id });
    expect(await requestParticipants(t.database.db, byGone.id)).toEqual({ requesterId: null, assigneeIds: [] });
  });
});
