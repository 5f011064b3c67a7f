import { countOf } from './tracker-file';

describe('counts', () => {
  it('says one or many', () => {
    expect(countOf(1, 'task')).toBe('1 task');
    expect(countOf(0, 'task')).toBe('0 tasks');
    expect(countOf(12, 'point of focus', 'points of focus')).toBe('12 points of focus');
  });
});
