import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../test/app';
import { MAX_VARIANTS, preparedQuery, preparedVariants, statementNames } from './prepared';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('preparedQuery', () => {
  it('answers as the query built anew would, for each value and each length of list, building once per length', async () => {
    const db = t.database.db;
    let builds = 0;
    const usersIn = preparedQuery((db, status: 'active' | 'suspended', emails: readonly string[]) => {
      builds++;
      return db
        .selectFrom('users')
        .select(['email', 'status'])
        .where('status', '=', status)
        .where('email', 'in', emails)
        .where('is_auditor', '=', false)
        .orderBy('email');
    });
    const direct = (status: 'active' | 'suspended', emails: string[]) =>
      db
        .selectFrom('users')
        .select(['email', 'status'])
        .where('status', '=', status)
        .where('email', 'in', emails)
        .where('is_auditor', '=', false)
        .orderBy('email')
        .execute();

    const cases: ['active' | 'suspended', string[]][] = [
      ['active', ['member@acme.test', 'consultant@demo.test']],
      ['active', ['lead@acme.test', 'nobody@example.test']],
      ['suspended', ['member@acme.test', 'consultant@demo.test']],
      ['active', ['member@acme.test']],
      ['active', ['lead@acme.test', 'member@acme.test', 'consultant@demo.test']],
    ];
    for (const [status, emails] of cases)
      expect(await usersIn(db, status, emails)).toEqual(await direct(status, emails));
    expect((await usersIn(db, 'active', ['member@acme.test', 'consultant@demo.test'])).map((u) => u.email)).toEqual([
      'consultant@demo.test',
      'member@acme.test',
    ]);
    // three shapes: lists of 2, 1 and 3
    expect(builds).toBe(3);
  });

  it('names the text of a query planned once, not that of one planned per call (which PostgreSQL then plans on each call)', async () => {
    const db = t.database.db;
    const once = preparedQuery((db, email: string) =>
      db.selectFrom('users').select('status').where('email', '=', email).where('is_admin', '=', false),
    );
    const perCall = preparedQuery(
      (db, email: string) =>
        db.selectFrom('users').select(['status', 'is_admin']).where('email', '=', email).where('is_admin', '=', true),
      'per call',
    );
    expect(await once(db, 'member@acme.test')).toEqual([{ status: 'active' }]);
    expect((await perCall(db, 'admin@demo.test')).map((r) => r.status)).toEqual(['active']);
    const texts = [...statementNames.keys()].filter((text) => text.includes('"is_admin" ='));
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('"is_admin" from');
    expect(await once(db, 'admin@demo.test')).toEqual([]);
  });

  it('refuses a builder that changes a value before it reaches the query, or leaves one out', async () => {
    const db = t.database.db;
    const changed = preparedQuery((db, search: string) =>
      db.selectFrom('users').select('email').where('email', 'like', `%${search}%`),
    );
    await expect(changed(db, 'acme')).rejects.toThrow('a value was changed before it reached the query');
    const unused = preparedQuery((db, _id: string) =>
      db.selectFrom('users').select('email').where('status', '=', 'active'),
    );
    await expect(unused(db, 'x')).rejects.toThrow('did not reach the query');
  });
});

describe('preparedVariants', () => {
  it('prepares one query per variant and set of given values, each answering as the query built anew would', async () => {
    const db = t.database.db;
    let builds = 0;
    type Values = { status?: 'active' | 'suspended'; emails?: readonly string[] };
    const build = (db: TestApp['database']['db'], order: 'asc' | 'desc', values: Values) => {
      let q = db.selectFrom('users').select(['email', 'status']).where('is_auditor', '=', false);
      if (values.status !== undefined) q = q.where('status', '=', values.status);
      if (values.emails !== undefined) q = q.where('email', 'in', values.emails);
      return q.orderBy('email', order);
    };
    const users = preparedVariants(
      (order: 'asc' | 'desc') => order,
      (db, order, values: Values) => {
        builds++;
        return build(db, order, values);
      },
    );
    const emails = ['member@acme.test', 'consultant@demo.test', 'lead@acme.test'];
    const cases: ['asc' | 'desc', Values][] = [
      ['asc', {}],
      ['desc', {}],
      ['asc', { status: 'active' }],
      ['asc', { status: 'suspended' }],
      ['asc', { emails }],
      ['desc', { status: 'active', emails }],
      ['desc', { status: 'active', emails: emails.slice(1) }],
      ['asc', { status: undefined, emails }],
    ];
    for (const [order, values] of cases)
      expect(await users(db, order, values)).toEqual(await build(db, order, values).execute());
    expect((await users(db, 'desc', { emails })).map((u) => u.email)).toEqual([
      'member@acme.test',
      'lead@acme.test',
      'consultant@demo.test',
    ]);
    // asc/none, desc/none, asc/status, asc/emails of 3, desc/status+emails of 3, desc/status+emails of 2, desc/emails of 3
    expect(builds).toBe(7);
  });

  it('keeps at most MAX_VARIANTS variants: the ones after them are built on each call and still answer right', async () => {
    const db = t.database.db;
    let builds = 0;
    const build = (db: TestApp['database']['db'], limit: number, values: { status: 'active' | 'suspended' }) =>
      db.selectFrom('users').select('email').where('status', '=', values.status).orderBy('email').limit(sql.lit(limit));
    const users = preparedVariants(
      (limit: number) => String(limit),
      (db, limit, values: { status: 'active' | 'suspended' }) => {
        builds++;
        return build(db, limit, values);
      },
    );
    const namedBefore = statementNames.size;
    for (let limit = 1; limit <= MAX_VARIANTS + 5; limit++) {
      expect(await users(db, limit, { status: 'active' })).toEqual(
        await build(db, limit, { status: 'active' }).execute(),
      );
    }
    expect(builds).toBe(MAX_VARIANTS + 5);
    // a kept variant is not built again; one after them is, on every call
    await users(db, 1, { status: 'suspended' });
    await users(db, MAX_VARIANTS + 5, { status: 'suspended' });
    expect(builds).toBe(MAX_VARIANTS + 6);
    expect(statementNames.size - namedBefore).toBe(MAX_VARIANTS);
  });
});
