import { z } from 'zod';
import { zodRule } from './api';

const check = (rule: ReturnType<typeof zodRule>, value: unknown) => rule.validator(undefined, value);

describe('zodRule', () => {
  const name = z.string().min(1, 'name is required');

  it("passes a valid value and fails an invalid one with the schema's first message", async () => {
    await expect(check(zodRule(name), 'Ada')).resolves.toBeUndefined();
    await expect(check(zodRule(name), '')).rejects.toThrow('name is required');
  });

  it('lets an empty value through unchecked only with skipEmpty', async () => {
    for (const empty of [undefined, null, ''])
      await expect(check(zodRule(name, { skipEmpty: true }), empty)).resolves.toBeUndefined();
    await expect(check(zodRule(name, { skipEmpty: true }), 7)).rejects.toThrow();
  });

  it('checks null as an absent value only with nullAsMissing', async () => {
    const optional = z.number().optional();
    await expect(check(zodRule(optional, { nullAsMissing: true }), null)).resolves.toBeUndefined();
    await expect(check(zodRule(optional), null)).rejects.toThrow();
  });
});
