import { MODULES } from '@portal/shared/core/modules';
import { createTestApp, type TestApp } from '../test/app';
import { findCompanyById, insertCompany } from './companies';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const allOff = Object.fromEntries(MODULES.map((m) => [m, false]));

describe('findCompanyById', () => {
  it('reads the company with its module access', async () => {
    const db = t.database.db;
    const modulesAccess = { ...allOff, [MODULES[0]]: true } as Record<(typeof MODULES)[number], boolean>;
    const id = await insertCompany(db, { name: 'Modules Check Inc', modulesAccess });
    expect(await findCompanyById(db, id)).toEqual({ id, name: 'Modules Check Inc', logo: null, modulesAccess });
  });

  it('takes a module without a row as off, and a company without any row as having every module off', async () => {
    const db = t.database.db;
    const id = await insertCompany(db, {
      name: 'No Rows Ltd',
      modulesAccess: Object.fromEntries(MODULES.map((m) => [m, true])) as Record<(typeof MODULES)[number], boolean>,
    });
    await db
      .deleteFrom('company_modules_access')
      .where('company_id', '=', id)
      .where('module', '=', MODULES[1])
      .execute();
    expect((await findCompanyById(db, id))?.modulesAccess).toEqual({
      ...Object.fromEntries(MODULES.map((m) => [m, true])),
      [MODULES[1]]: false,
    });
    await db.deleteFrom('company_modules_access').where('company_id', '=', id).execute();
    expect(await findCompanyById(db, id)).toEqual({ id, name: 'No Rows Ltd', logo: null, modulesAccess: allOff });
  });

  it('finds nothing for an unknown id', async () => {
    expect(await findCompanyById(t.database.db, 'no-such-company')).toBeNull();
  });
});
