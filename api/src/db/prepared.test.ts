import { createTestApp, type TestApp } from '../test/app';
import { preparedQuery } from './prepared';

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
      return db.selectFrom('users').select(['email', 'status']).where('status', '=', status).where('email', 'in', emails).where('is_auditor', '=', false).orderBy('email');
    });
    const direct = (status: 'active' | 'suspended', emails: string[]) =>
      db.selectFrom('users').select(['email', 'status']).where('status', '=', status).where('email', 'in', emails).where('is_auditor', '=', false).orderBy('email').execute();

    const cases: ['active' | 'suspended', string[]][] = [
      ['active', ['member@acme.test', 'consultant@demo.test']],
      ['active', ['lead@acme.test', 'nobody@example.test']],
      ['suspended', ['member@acme.test', 'consultant@demo.test']],
      ['active', ['member@acme.test']],
      ['active', ['lead@acme.test', 'member@acme.test', 'consultant@demo.test']],
    ];
    for (const [status, emails] of cases) expect(await usersIn(db, status, emails)).toEqual(await direct(status, emails));
    expect((await usersIn(db, 'active', ['member@acme.test', 'consultant@demo.test'])).map((u) => u.email)).toEqual(['consultant@demo.test', 'member@acme.test']);
    // three shapes: lists of 2, 1 and 3
    expect(builds).toBe(3);
  });

  it('refuses a builder that changes a value before it reaches the query, or leaves one out', async () => {
    const db = t.database.db;
    const changed = preparedQuery((db, search: string) => db.selectFrom('users').select('email').where('email', 'like', `%${search}%`));
    await expect(changed(db, 'acme')).rejects.toThrow('a value was changed before it reached the query');
    const unused = preparedQuery((db, _id: string) => db.selectFrom('users').select('email').where('status', '=', 'active'));
    await expect(unused(db, 'x')).rejects.toThrow('did not reach the query');
  });
});
