import { effectiveModuleAccess, settingsPermissionsFor } from './modules';

const allOn = { risks: true, projects: true, requests: true, reports: true, assets: true };

describe('effectiveModuleAccess', () => {
  it('company off means off, whatever the user or teams say', () => {
    const r = effectiveModuleAccess({ ...allOn, requests: false }, { requests: true }, [{ requests: true }]);
    expect(r.requests).toBe(false);
  });
  it("a user's explicit value wins over teams", () => {
    expect(effectiveModuleAccess(allOn, { reports: false }, [{ reports: true }]).reports).toBe(false);
    expect(effectiveModuleAccess(allOn, { reports: true }, [{ reports: false }]).reports).toBe(true);
  });
  it('otherwise teams decide (any grant wins), else the company value is inherited', () => {
    expect(effectiveModuleAccess(allOn, { reports: null }, [{ reports: false }]).reports).toBe(false);
    expect(effectiveModuleAccess(allOn, null, [{ reports: false }, { reports: true }]).reports).toBe(true);
    expect(effectiveModuleAccess(allOn, null, [{ reports: null }]).reports).toBe(true);
  });
});

describe('settingsPermissionsFor', () => {
  it('gives staff admins everything and plain clients nothing', () => {
    const admin = settingsPermissionsFor({ isTevora: true, isAuditor: false, isStaffAdmin: true, companyRole: null });
    expect(Object.values(admin.users).every(Boolean) && Object.values(admin.company).every(Boolean)).toBe(true);
    const client = settingsPermissionsFor({
      isTevora: false,
      isAuditor: false,
      isStaffAdmin: false,
      companyRole: 'member',
    });
    expect(Object.values(client.users).some(Boolean) || Object.values(client.company).some(Boolean)).toBe(false);
    expect(client.loaded).toBe(true);
  });
  it('lets a client company admin edit company information, users and teams only', () => {
    const p = settingsPermissionsFor({ isTevora: false, isAuditor: false, isStaffAdmin: false, companyRole: 'admin' });
    expect(p.company).toEqual({
      editInformation: true,
      editModulesAccess: false,
      editUsersAndTeams: true,
      addCompany: false,
    });
  });
});
