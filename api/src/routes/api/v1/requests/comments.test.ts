import { randomUUID } from 'node:crypto';
import type { RequestComment } from '@portal/shared/core/requests';
import { createTestApp, type TestApp } from '../../../../test/app';
import { auditRows, newActiveProject, newCompany } from '../../../../test/project-fixtures';
import {
  bellsOf,
  eventually,
  insertTestRequest,
  mailsTo,
  person,
  type Person,
  type TestRequest,
} from '../../../../test/evidence-fixtures';

let t: TestApp;
let companyId: string;
/** Staff manager, the requester. */
let stella: Person;
/** Another staff manager. */
let oscar: Person;
/** An auditor holding a role on the project. */
let audrey: Person;
/** Assigned clients. */
let ann: Person;
let ben: Person;
/** A client of the company the request is not assigned to. */
let cleo: Person;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await newCompany(t, `Comments ${randomUUID()}`);
  stella = await person(t, { isTevora: true, firstName: 'Stella' });
  oscar = await person(t, { isTevora: true, firstName: 'Oscar' });
  audrey = await person(t, { isTevora: true, isAuditor: true, firstName: 'Audrey' });
  ann = await person(t, { companyIds: [companyId], firstName: 'Ann' });
  ben = await person(t, { companyIds: [companyId], firstName: 'Ben' });
  cleo = await person(t, { companyIds: [companyId], firstName: 'Cleo' });
  projectId = await newActiveProject(t, companyId, 'Comments project', [[audrey.id, 'Consultant']]);
});
afterAll(() => t.close());

const newRequest = () =>
  insertTestRequest(t, {
    companyId,
    title: 'Firewall review',
    requesterId: stella.id,
    assigneeIds: [ann.id, ben.id],
    projectId,
  });
const url = (r: TestRequest) => `/api/v1/requests/${r.id}/comments`;
const post = (r: TestRequest, who: Person, payload: unknown) =>
  t.api({ method: 'POST', url: url(r), cookie: who.cookie, payload: payload as object });
const list = async (r: TestRequest, who: Person): Promise<RequestComment[]> => {
  const res = await t.api({ method: 'GET', url: url(r), cookie: who.cookie });
  expect(res.statusCode).toBe(200);
  return (res.json() as { results: RequestComment[] }).results;
};
const events = (r: TestRequest) =>
  t.database.db
    .selectFrom('request_events')
    .select(['type', 'detail', 'internal', 'actor_id'])
    .where('request_id', '=', r.id)
    .orderBy('created_at')
    .execute();

describe('comments of a request', () => {
  it('lets an assignee comment: the history, the update time, the audit and the people concerned hear of it', async () => {
    const request = await newRequest();
    await t.database.db
      .updateTable('requests')
      .set({ updated_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', request.id)
      .execute();
    const res = await post(request, ann, { body: 'Here is the export you asked for.' });
    expect(res.statusCode).toBe(201);
    const comment = res.json() as RequestComment;
    expect(comment).toMatchObject({
      requestId: request.id,
      body: 'Here is the export you asked for.',
      internal: false,
      author: { id: ann.id, firstName: 'Ann', lastName: 'Tester', email: ann.email, isTevora: false },
    });
    expect(Date.parse(comment.createdAt)).not.toBeNaN();

    const history = await events(request);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: 'comment', actor_id: ann.id });
    expect(JSON.parse(history[0].detail)).toEqual({ internal: false });
    expect(Boolean(history[0].internal)).toBe(false);
    const row = await t.database.db
      .selectFrom('requests')
      .select('updated_at')
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(new Date(row.updated_at).getFullYear()).toBeGreaterThan(2020);
    expect(await auditRows(t, 'request.comment.create', request.id)).toHaveLength(1);

    // The requester and the other assignee; not the author, not a client it is not assigned to.
    const bell = {
      title: `New comment on ${request.reference}: Firewall review`,
      body: 'Here is the export you asked for.',
      link: `/requests/${request.id}`,
    };
    expect(await bellsOf(t, stella.id, bell.link)).toEqual([expect.objectContaining(bell)]);
    expect(await bellsOf(t, ben.id, bell.link)).toEqual([expect.objectContaining(bell)]);
    expect(await bellsOf(t, ann.id, bell.link)).toEqual([]);
    expect(await bellsOf(t, cleo.id, bell.link)).toEqual([]);
    await eventually(
      () => mailsTo(t, ben.email, bell.title).length === 1 && mailsTo(t, stella.email, bell.title).length === 1,
    );
    expect(mailsTo(t, ann.email, bell.title)).toEqual([]);

    // Later, an earlier commenter hears of the next comment too.
    await post(request, oscar, { body: 'Thanks, looking at it.' });
    expect(await bellsOf(t, ann.id, bell.link)).toEqual([expect.objectContaining({ body: 'Thanks, looking at it.' })]);
    expect((await list(request, ben)).map((c) => c.body)).toEqual([
      'Here is the export you asked for.',
      'Thanks, looking at it.',
    ]);
  });

  it('keeps internal comments among staff: written by managers, read by staff, told to staff', async () => {
    const request = await newRequest();
    await post(request, ann, { body: 'Uploaded.' });
    expect((await post(request, ann, { body: 'Psst', internal: true })).json()).toMatchObject({ code: 'forbidden' });
    expect((await post(request, ann, { body: 'Psst', internal: true })).statusCode).toBe(403);
    // Auditors see the request through their project and read internal notes, but do not write them.
    expect((await post(request, audrey, { body: 'Psst', internal: true })).statusCode).toBe(403);

    const res = await post(request, oscar, { body: 'The export looks edited.', internal: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ internal: true, author: { id: oscar.id } });

    expect((await list(request, ann)).map((c) => c.body)).toEqual(['Uploaded.']);
    expect((await list(request, stella)).map((c) => [c.body, c.internal])).toEqual([
      ['Uploaded.', false],
      ['The export looks edited.', true],
    ]);
    expect((await list(request, audrey)).map((c) => c.body)).toEqual(['Uploaded.', 'The export looks edited.']);

    const history = await events(request);
    expect(history.map((e) => [e.type, Boolean(e.internal), JSON.parse(e.detail)])).toEqual([
      ['comment', false, { internal: false }],
      ['comment', true, { internal: true }],
    ]);

    // The requester hears of it; the assignees and the earlier client commenter do not.
    const link = `/requests/${request.id}`;
    expect((await bellsOf(t, stella.id, link)).map((b) => b.body).sort()).toEqual([
      'The export looks edited.',
      'Uploaded.',
    ]);
    expect((await bellsOf(t, ann.id, link)).map((b) => b.body)).toEqual([]);
    expect((await bellsOf(t, ben.id, link)).map((b) => b.body)).toEqual(['Uploaded.']);
  });

  it('refuses what is not a comment, naming the field', async () => {
    const request = await newRequest();
    for (const payload of [{}, { body: '' }, { body: 'a\u0000b' }, { body: 'x'.repeat(5001) }]) {
      const res = await post(request, ann, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [expect.objectContaining({ field: 'body' })],
      });
    }
    const bad = await post(request, stella, { body: 'ok', internal: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: [expect.objectContaining({ field: 'internal' })] });
    expect(await list(request, stella)).toEqual([]);
  });

  it('hides the comments of a request the caller does not see', async () => {
    const request = await newRequest();
    await post(request, ann, { body: 'Secret' });
    for (const res of [
      await t.api({ method: 'GET', url: url(request), cookie: cleo.cookie }),
      await post(request, cleo, { body: 'Hi' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'request_not_found' });
    }
    const missing = await t.api({
      method: 'GET',
      url: `/api/v1/requests/${randomUUID()}/comments`,
      cookie: stella.cookie,
    });
    expect(missing.statusCode).toBe(404);
  });
});
