import { reconnectDelay, RECONNECT_MAX_MS } from './reconnect';

describe('reconnectDelay', () => {
  it('doubles from 1 s, caps at 30 s and spreads each wait between half and all of it', () => {
    expect([0, 1, 2, 3].map((a) => reconnectDelay(a, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(reconnectDelay(0, () => 0)).toBe(500);
    expect(reconnectDelay(5, () => 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(1000, () => 0)).toBe(RECONNECT_MAX_MS / 2);
  });
});
