import { fitLabel, shortLabel } from './short-label';

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

describe('fitLabel', () => {
  // a stand-in for the canvas: 7 px a character, 10 px the ellipsis
  const measure = (t: string) => [...t].reduce((w, c) => w + (c === '…' ? 10 : 7), 0);

  it('keeps a name that fits whole', () => {
    expect(fitLabel('Acme SOC 2', 70, measure)).toBe('Acme SOC 2');
  });

  it('cuts a name that does not fit to the longest start that does, with an ellipsis', () => {
    const fitted = fitLabel('Acme SOC 2 Type II 2026', 100, measure);
    expect(fitted).toBe('Acme SOC 2 T…');
    expect(measure(fitted)).toBeLessThanOrEqual(100);
    expect(measure(fitLabel('Acme SOC 2 Type II 2026', 107, measure))).toBeGreaterThan(100);
  });

  it('re-cuts a name shortLabel already cut, without a second ellipsis', () => {
    expect(fitLabel('Acme Corporation Vendor…', 80, measure)).toBe('Acme Corpo…');
  });

  it('keeps at least one character when nothing fits', () => {
    expect(fitLabel('Acme', 5, measure)).toBe('A…');
  });
});
