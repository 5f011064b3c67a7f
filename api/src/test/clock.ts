/**
 * Test helper: a frozen `Date` for the sign-in waits, and nothing else faked (timers, ticks and
 * `performance` keep running: the app, its database pool and argon2 need them). Undo with
 * `jest.useRealTimers()`.
 */
export function freezeDate(at: number = Date.now()): { advance(ms: number): void } {
  jest.useFakeTimers({
    now: at,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return { advance: (ms) => jest.setSystemTime(Date.now() + ms) };
}
