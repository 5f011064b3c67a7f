import type { FlagRule } from '@portal/shared/core/feature-flags';
import type { FeatureFlagRecord } from '../db/feature-flags';
import { compileFlag, evaluateFlag, evaluateFlags, flagSubjectOf, type FlagSubject } from './flag-evaluation';

const person = {
  id: 'u-1',
  firstName: 'Laura',
  lastName: 'Chen',
  email: 'lead@acme.test',
  isTevora: false,
  isAuditor: false,
  isAdmin: false,
};
const client = flagSubjectOf(person, ['acme']);
const staff = flagSubjectOf({ ...person, id: 'u-2', email: 'consultant@demo.test', isTevora: true }, []);
const staffAdmin = flagSubjectOf({ ...person, id: 'u-3', email: 'admin@demo.test', isTevora: true, isAdmin: true }, []);
const auditor = flagSubjectOf(
  { ...person, id: 'u-4', email: 'auditor@demo.test', isTevora: true, isAuditor: true },
  [],
);

function record(partial: Partial<FeatureFlagRecord> & { rules?: unknown }): FeatureFlagRecord {
  return {
    key: 'f',
    description: '',
    defaultValue: false,
    rules: [],
    enabled: true,
    version: 1,
    updatedAt: new Date(0).toISOString(),
    ...partial,
  };
}
const evaluate = (rules: FlagRule[], subject: FlagSubject, extra: Partial<FeatureFlagRecord> = {}) =>
  evaluateFlag(compileFlag(record({ rules, ...extra })), subject);
const holds = (rule: FlagRule['if'], subject: FlagSubject) =>
  evaluate([{ if: rule, value: true }], subject)?.value === true;

describe('flag evaluation', () => {
  it('builds the flag evaluation context from the user, never anonymous', () => {
    expect(client.context).toEqual({
      key: 'u-1',
      firstName: 'Laura',
      lastName: 'Chen',
      email: 'lead@acme.test',
      anonymous: false,
      custom: { isTevora: false },
    });
    // an admin flag on a client user is not a staff admin
    expect(flagSubjectOf({ ...person, isAdmin: true }, []).isAdmin).toBe(false);
  });

  it('serves the default as STATIC without rules and as DEFAULT when no rule matches', () => {
    expect(evaluate([], client)).toEqual({ value: false, reason: 'STATIC' });
    expect(evaluate([{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: true }], client)).toEqual({
      value: false,
      reason: 'DEFAULT',
    });
  });

  it('takes the first matching rule, in order, with its variant', () => {
    const rules: FlagRule[] = [
      { if: { attribute: 'isAdmin', op: 'eq', value: true }, value: 'admin', variant: 'admins' },
      { if: { attribute: 'isTevora', op: 'eq', value: true }, value: 'staff' },
    ];
    expect(evaluate(rules, staffAdmin, { defaultValue: 'everyone' })).toEqual({
      value: 'admin',
      variant: 'admins',
      reason: 'TARGETING_MATCH',
    });
    expect(evaluate(rules, staff, { defaultValue: 'everyone' })).toEqual({ value: 'staff', reason: 'TARGETING_MATCH' });
    expect(evaluate(rules, client, { defaultValue: 'everyone' })).toEqual({ value: 'everyone', reason: 'DEFAULT' });
  });

  it('serves the default with reason DISABLED when the flag is off, whatever the rules say', () => {
    expect(
      evaluate([{ if: { attribute: 'isTevora', op: 'eq', value: true }, value: true }], staff, { enabled: false }),
    ).toEqual({
      value: false,
      reason: 'DISABLED',
    });
  });

  it('compares strings: eq, neq, in, notIn, endsWith (emails without regard to case)', () => {
    expect(holds({ attribute: 'key', op: 'eq', value: 'u-1' }, client)).toBe(true);
    expect(holds({ attribute: 'key', op: 'neq', value: 'u-1' }, client)).toBe(false);
    expect(holds({ attribute: 'email', op: 'eq', value: 'LEAD@Acme.test' }, client)).toBe(true);
    expect(holds({ attribute: 'email', op: 'endsWith', value: '@ACME.TEST' }, client)).toBe(true);
    expect(holds({ attribute: 'email', op: 'endsWith', value: '@demo.test' }, client)).toBe(false);
    expect(holds({ attribute: 'email', op: 'in', value: ['x@y.test', 'Lead@acme.test'] }, client)).toBe(true);
    expect(holds({ attribute: 'email', op: 'notIn', value: ['lead@acme.test'] }, client)).toBe(false);
    expect(holds({ attribute: 'key', op: 'notIn', value: ['u-9'] }, client)).toBe(true);
  });

  it('tests the staff, auditor and staff-admin flags', () => {
    expect(holds({ attribute: 'isTevora', op: 'eq', value: true }, staff)).toBe(true);
    expect(holds({ attribute: 'isTevora', op: 'neq', value: true }, client)).toBe(true);
    expect(holds({ attribute: 'isAuditor', op: 'eq', value: true }, auditor)).toBe(true);
    expect(holds({ attribute: 'isAuditor', op: 'eq', value: true }, staff)).toBe(false);
    expect(holds({ attribute: 'isAdmin', op: 'eq', value: true }, staffAdmin)).toBe(true);
    expect(holds({ attribute: 'isAdmin', op: 'eq', value: true }, staff)).toBe(false);
  });

  it('tests company membership: contains, in (any of) and notIn (none of)', () => {
    expect(holds({ attribute: 'companyIds', op: 'contains', value: 'acme' }, client)).toBe(true);
    expect(holds({ attribute: 'companyIds', op: 'contains', value: 'globex' }, client)).toBe(false);
    expect(holds({ attribute: 'companyIds', op: 'in', value: ['globex', 'acme'] }, client)).toBe(true);
    expect(holds({ attribute: 'companyIds', op: 'notIn', value: ['globex'] }, client)).toBe(true);
    expect(holds({ attribute: 'companyIds', op: 'in', value: ['acme'] }, staff)).toBe(false);
  });

  it('keeps a broken stored definition from breaking the others', () => {
    const flags = [
      compileFlag(
        record({
          key: 'bad-rules',
          defaultValue: true,
          rules: [{ if: { attribute: 'shoeSize', op: 'eq', value: 1 }, value: true }],
        }),
      ),
      compileFlag(record({ key: 'bad-default', defaultValue: null })),
      compileFlag(record({ key: 'good', defaultValue: 'x' })),
    ];
    expect(evaluateFlags(flags, client, 'v1')).toEqual({
      flags: { 'bad-rules': { value: true, reason: 'ERROR' }, good: { value: 'x', reason: 'STATIC' } },
      version: 'v1',
    });
  });
});
