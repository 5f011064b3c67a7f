import { LiveEvents, type EventSink } from './live-events';
import { formatEvent } from '../../lib/sse';

function sink() {
  const s = { lines: [] as string[], closed: false };
  const value: EventSink & typeof s = Object.assign(s, {
    write: (text: string) => void s.lines.push(text),
    close: () => void (s.closed = true),
  });
  return value;
}

const unreadEvents = (s: { lines: string[] }) => s.lines.filter((l) => l.startsWith('event: unread'));

describe('LiveEvents', () => {
  let counts: Map<string, number>;
  let queries: string[][];
  let clock: number;
  let hub: LiveEvents;

  beforeEach(() => {
    jest.useFakeTimers();
    counts = new Map([['u1', 2]]);
    queries = [];
    clock = 0;
    hub = new LiveEvents({
      countUnread: async (ids) => {
        queries.push(ids);
        return new Map([...counts].filter(([id]) => ids.includes(id)));
      },
      pollIntervalMs: 1000,
      heartbeatMs: 25_000,
      maxStreamMs: 60_000,
      maxStreamsPerUser: 2,
      now: () => clock,
    });
  });
  afterEach(() => {
    hub.closeAll();
    jest.useRealTimers();
  });

  it('sends retry and the current count on connect, then only changes, found by one grouped poll', async () => {
    const a = sink();
    await hub.add('u1', a);
    const b = sink();
    await hub.add('u2', b);
    expect(a.lines).toEqual(['retry: 3000\n\n', formatEvent('unread', { unreadCount: 2 })]);
    expect(unreadEvents(b)).toEqual([formatEvent('unread', { unreadCount: 0 })]);

    queries = [];
    await jest.advanceTimersByTimeAsync(1000);
    expect(queries).toEqual([['u1', 'u2']]);
    expect(unreadEvents(a)).toHaveLength(1);

    counts.set('u1', 3);
    await jest.advanceTimersByTimeAsync(1000);
    expect(unreadEvents(a).at(-1)).toBe(formatEvent('unread', { unreadCount: 3 }));
    expect(unreadEvents(b)).toHaveLength(1);
  });

  it('sends a heartbeat comment, closes streams past their lifetime and stops polling when nobody is connected', async () => {
    const a = sink();
    const remove = await hub.add('u1', a);
    clock = 25_000;
    await jest.advanceTimersByTimeAsync(25_000);
    expect(a.lines).toContain(': heartbeat\n\n');
    clock = 75_000;
    await jest.advanceTimersByTimeAsync(50_000);
    expect(a.closed).toBe(true);
    expect(hub.size).toBe(0);
    remove();
    queries = [];
    await jest.advanceTimersByTimeAsync(5000);
    expect(queries).toEqual([]);
  });

  it("closes a user's oldest stream beyond the limit per user", async () => {
    const first = sink();
    await hub.add('u1', first);
    clock = 1;
    await hub.add('u1', sink());
    clock = 2;
    await hub.add('u1', sink());
    expect(first.closed).toBe(true);
    expect(hub.size).toBe(2);
  });

  it('touch sends to every stream of that user', async () => {
    const a = sink();
    const b = sink();
    await hub.add('u1', a);
    await hub.add('u1', b);
    counts.set('u1', 0);
    await hub.touch('u1');
    for (const s of [a, b]) expect(unreadEvents(s).at(-1)).toBe(formatEvent('unread', { unreadCount: 0 }));
    await hub.touch('nobody');
  });

  it('closes everything on closeAll and refuses later streams', async () => {
    const a = sink();
    await hub.add('u1', a);
    hub.closeAll();
    expect(a.closed).toBe(true);
    const late = sink();
    await hub.add('u1', late);
    expect(late.closed).toBe(true);
    expect(hub.size).toBe(0);
  });

  it('closes a stream at the next poll once its session has ended, and keeps the others', async () => {
    const active = new Set(['s1', 's2']);
    const checked: string[][] = [];
    const sessions = new LiveEvents({
      countUnread: async () => new Map([['u1', 1]]),
      activeSessions: async (ids) => {
        checked.push(ids);
        return new Set(ids.filter((id) => active.has(id)));
      },
    });
    const first = sink();
    const second = sink();
    await sessions.add('u1', first, 's1');
    await sessions.add('u1', second, 's2');
    await sessions.pollNow();
    expect([first.closed, second.closed]).toEqual([false, false]);
    active.delete('s2'); // signed out in another tab, or suspended
    await sessions.pollNow();
    expect([first.closed, second.closed]).toEqual([false, true]);
    expect(sessions.size).toBe(1);
    expect(checked.at(-1)).toEqual(['s1', 's2']);
    sessions.closeAll();
  });

  it('reports a failed count and keeps going', async () => {
    const errors: unknown[] = [];
    const failing = new LiveEvents({
      countUnread: async () => {
        throw new Error('db down');
      },
      onError: (e) => errors.push(e),
    });
    const a = sink();
    await failing.add('u1', a);
    expect(errors).toHaveLength(1);
    failing.closeAll();
  });
});
