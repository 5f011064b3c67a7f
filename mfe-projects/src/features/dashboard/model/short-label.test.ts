import { shortLabel } from './short-label';

describe('shortLabel', () => {
  it('keeps names up to 24 characters and cuts longer ones to 24 with an ellipsis', () => {
    expect(shortLabel('Acme SOC 2 Type II 2026')).toBe('Acme SOC 2 Type II 2026');
    expect(shortLabel('x'.repeat(24))).toBe('x'.repeat(24));
    const cut = shortLabel('Acme Corporation Vendor Risk Review 2026');
    expect(cut).toBe('Acme Corporation Vendor…');
    expect([...cut]).toHaveLength(24);
    // a cut never splits a character made of two UTF-16 units
    expect(shortLabel(`${'a'.repeat(22)}😀😀😀`)).toBe(`${'a'.repeat(22)}😀…`);
  });
});
