import { FLAG_SERVICE_DEFAULTS } from '@portal/shared/core/feature-flags';
import { FakeEventSource } from './fake-event-source';
import { FlagStream, reconnectDelay } from './flag-stream';

const logger = { warn: jest.fn(), error: jest.fn() };

beforeEach(() => {
  jest.useFakeTimers();
  FakeEventSource.reset();
  logger.warn.mockReset();
  logger.error.mockReset();
});
afterEach(() => jest.useRealTimers());

describe('reconnectDelay', () => {
  it('starts at 1000 ms, doubles, caps at 30000 ms, and jitters within the upper half', () => {
    const ceilings = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000];
    expect(ceilings.map((_, attempt) => reconnectDelay(attempt, () => 0))).toEqual(ceilings);
    expect(ceilings.map((_, attempt) => reconnectDelay(attempt, () => 1))).toEqual(ceilings.map((c) => c / 2));
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(30000, 1000 * 2 ** attempt);
      const d = reconnectDelay(attempt);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
    }
  });

  it('uses the flag stream reconnect constants', () => {
    expect(FLAG_SERVICE_DEFAULTS).toMatchObject({
      streamReconnectDelayMs: 1000,
      streamReconnectMaxDelayMs: 30000,
      streamReadTimeoutMs: 300000,
    });
  });
});

describe('FlagStream', () => {
  function stream(random = () => 0.5) {
    const onFlags = jest.fn();
    const s = new FlagStream({
      url: '/api/v1/feature-flags/stream',
      open: FakeEventSource.factory,
      onFlags,
      logger,
      random,
    });
    return { s, onFlags };
  }

  /** Fails the open connection and returns the delay until the next one opened. */
  function failAndMeasure(): number {
    const before = FakeEventSource.instances.length;
    const failed = FakeEventSource.latest;
    failed.fail();
    expect(failed.closed).toBe(true);
    let waited = 0;
    while (FakeEventSource.instances.length === before) {
      jest.advanceTimersByTime(1);
      waited += 1;
      if (waited > 31000) throw new Error('never reconnected');
    }
    return waited;
  }

  it('reconnects after errors with a doubling, capped, jittered delay, and starts over after a successful open', () => {
    const { s } = stream(() => 0.5);
    s.start();
    expect(FakeEventSource.instances).toHaveLength(1);
    // random 0.5: three quarters of each ceiling
    expect([
      failAndMeasure(),
      failAndMeasure(),
      failAndMeasure(),
      failAndMeasure(),
      failAndMeasure(),
      failAndMeasure(),
      failAndMeasure(),
    ]).toEqual([750, 1500, 3000, 6000, 12000, 22500, 22500]);
    FakeEventSource.latest.open();
    expect(failAndMeasure()).toBe(750);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('reconnecting in 750 ms'));
    s.stop();
  });

  it('keeps every delay within the jitter bounds', () => {
    const { s } = stream(Math.random);
    s.start();
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(30000, 1000 * 2 ** attempt);
      const waited = failAndMeasure();
      expect(waited).toBeGreaterThanOrEqual(ceiling / 2);
      expect(waited).toBeLessThanOrEqual(ceiling);
    }
    s.stop();
  });

  it('passes flags events on and reconnects when nothing arrives for the read timeout', () => {
    const { s, onFlags } = stream();
    s.start();
    const first = FakeEventSource.latest;
    first.open();
    first.emit('flags', { flags: {}, version: '1' });
    expect(onFlags).toHaveBeenCalledWith({ flags: {}, version: '1' });

    // heartbeats keep it alive
    jest.advanceTimersByTime(FLAG_SERVICE_DEFAULTS.streamReadTimeoutMs - 1000);
    first.emit('heartbeat', {});
    jest.advanceTimersByTime(FLAG_SERVICE_DEFAULTS.streamReadTimeoutMs - 1000);
    expect(first.closed).toBe(false);
    expect(FakeEventSource.instances).toHaveLength(1);

    // then silence: closed, and a new connection after the first backoff delay
    jest.advanceTimersByTime(1000);
    expect(first.closed).toBe(true);
    jest.advanceTimersByTime(750);
    expect(FakeEventSource.instances).toHaveLength(2);
    s.stop();
  });

  it('ignores a message that is not JSON, logging it', () => {
    const { s, onFlags } = stream();
    s.start();
    FakeEventSource.latest.emit('flags', '{not json');
    expect(onFlags).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalled();
    s.stop();
  });

  it('stops for good: no reconnect after stop', () => {
    const { s } = stream();
    s.start();
    const only = FakeEventSource.latest;
    s.stop();
    expect(only.closed).toBe(true);
    only.fail();
    jest.advanceTimersByTime(60_000 + FLAG_SERVICE_DEFAULTS.streamReadTimeoutMs);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
