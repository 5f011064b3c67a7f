import { createTestApp, type TestApp } from '../test/app';
import { createUserWithPassword } from '../test/identity';
import { countActiveStaffAdmins, setStaffAdmin } from './staff';
import { findUserById, suspendUser } from './users';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('setStaffAdmin', () => {
  it('never demotes the last active staff admin, counting suspended admins out', async () => {
    const db = t.database.db;
    const admins = await db
      .selectFrom('users')
      .select('id')
      .where('is_tevora', '=', true)
      .where('is_admin', '=', true)
      .execute();
    const second = await createUserWithPassword(t, 'Staff-Admin-Passw0rd!', { isTevora: true, isAdmin: true });
    // Everyone but `second` is demoted: each step leaves another active admin.
    for (const { id } of admins) expect(await setStaffAdmin(db, id, false)).toBe(true);
    expect(await countActiveStaffAdmins(db)).toBe(1);
    expect(await setStaffAdmin(db, second.id, false)).toBe(false);
    expect((await findUserById(db, second.id))!.isAdmin).toBe(true);

    // A suspended admin does not count as the other active one.
    const suspended = await createUserWithPassword(t, 'Staff-Admin-Passw0rd!', { isTevora: true, isAdmin: true });
    await suspendUser(db, suspended.id);
    expect(await setStaffAdmin(db, second.id, false)).toBe(false);
    expect(await setStaffAdmin(db, suspended.id, false)).toBe(true);

    expect(await setStaffAdmin(db, admins[0].id, true)).toBe(true);
    expect(await setStaffAdmin(db, second.id, false)).toBe(true);
    expect(await countActiveStaffAdmins(db)).toBe(1);
  });
});
