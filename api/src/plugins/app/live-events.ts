/**
 * Live events for signed-in users over server-sent events: today the bell's unread count.
 *
 * Works with several api instances: a change made through this instance is pushed at once
 * (`touch`), and one light poll per instance (a single grouped count over the users connected
 * here, every few seconds, only while someone is connected) catches changes made elsewhere.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { countUnreadByUser } from '../../db/notifications';
import { activeSessionIds } from '../../db/sessions';
import { formatEvent } from '../../lib/sse';

/** Where a stream's text goes; the route backs it with the HTTP response. */
export interface EventSink {
  write(text: string): void;
  close(): void;
}

export interface LiveEventsOptions {
  /** Unread counts of the given users; a user absent from the map has 0. */
  countUnread(userIds: string[]): Promise<Map<string, number>>;
  /** How often changes made by other instances are looked for. */
  pollIntervalMs?: number;
  /** A comment line keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** Streams are closed after this long: the browser reconnects and the session is checked again. */
  maxStreamMs?: number;
  /**
   * Which of these sessions are still signed in. Asked on every poll: a stream whose session ended
   * (sign-out, expiry, suspension, password change) is closed then, not at the end of its lifetime.
   */
  activeSessions?(sessionIds: string[]): Promise<Set<string>>;
  /** More streams of one user than this (tabs) close the oldest. */
  maxStreamsPerUser?: number;
  /** What the browser waits before reconnecting to a closed stream. */
  retryMs?: number;
  onError?(error: unknown): void;
  now?(): number;
}

interface Stream {
  userId: string;
  sessionId: string | null;
  sink: EventSink;
  openedAt: number;
  closed: boolean;
}

const POLL_BATCH = 500;

export class LiveEvents {
  private readonly streams = new Map<string, Set<Stream>>();
  private readonly lastUnread = new Map<string, number>();
  private pollTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  // Counts are read and sent one batch at a time, so an older count never overtakes a newer one.
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly options: Required<LiveEventsOptions>;

  constructor(options: LiveEventsOptions) {
    this.options = {
      pollIntervalMs: 5_000,
      heartbeatMs: 25_000,
      maxStreamMs: 15 * 60_000,
      maxStreamsPerUser: 5,
      retryMs: 3_000,
      onError: () => undefined,
      now: () => Date.now(),
      activeSessions: async (ids) => new Set(ids),
      ...options,
    };
  }

  /** Open streams on this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /**
   * Adds a stream for the user and sends the current unread count on it.
   * Returns the function that removes it (call it when the client goes away; calling twice is fine).
   */
  async add(userId: string, sink: EventSink, sessionId: string | null = null): Promise<() => void> {
    const stream: Stream = { userId, sessionId, sink, openedAt: this.options.now(), closed: false };
    const remove = () => this.remove(stream);
    if (this.stopped) {
      sink.close();
      return remove;
    }
    let set = this.streams.get(userId);
    if (!set) {
      set = new Set();
      this.streams.set(userId, set);
    }
    if (set.size >= this.options.maxStreamsPerUser) {
      const oldest = [...set].sort((a, b) => a.openedAt - b.openedAt)[0];
      this.end(oldest);
    }
    set.add(stream);
    this.startTimers();
    sink.write(`retry: ${this.options.retryMs}\n\n`);
    await this.enqueue(async () => {
      if (stream.closed) return;
      const count = (await this.options.countUnread([userId])).get(userId) ?? 0;
      if (this.lastUnread.get(userId) !== count) {
        this.lastUnread.set(userId, count);
        this.broadcast(userId, count);
      } else {
        this.send(stream, count);
      }
    });
    return remove;
  }

  /** Something changed for the user on this instance: send the new count now if it differs. */
  touch(userId: string): Promise<void> {
    if (!this.streams.has(userId)) return Promise.resolve();
    return this.enqueue(() => this.refresh([userId]));
  }

  /** One poll: streams of ended sessions closed, then every connected user's count, sent where it changed. */
  pollNow(): Promise<void> {
    return this.enqueue(async () => {
      await this.closeEndedSessions();
      const users = [...this.streams.keys()];
      for (let i = 0; i < users.length; i += POLL_BATCH) await this.refresh(users.slice(i, i + POLL_BATCH));
    });
  }

  private async closeEndedSessions(): Promise<void> {
    const open = [...this.streams.values()].flatMap((set) => [...set]).filter((s) => s.sessionId !== null);
    const ids = [...new Set(open.map((s) => s.sessionId!))];
    const active = new Set<string>();
    for (let i = 0; i < ids.length; i += POLL_BATCH) {
      for (const id of await this.options.activeSessions(ids.slice(i, i + POLL_BATCH))) active.add(id);
    }
    for (const stream of open) if (!active.has(stream.sessionId!)) this.end(stream);
  }

  /** Ends every stream and stops the timers (app close); later streams are closed at once. */
  closeAll(): void {
    this.stopped = true;
    for (const set of [...this.streams.values()]) for (const stream of [...set]) this.end(stream);
    this.stopTimers();
  }

  private async refresh(userIds: string[]): Promise<void> {
    const connected = userIds.filter((id) => this.streams.has(id));
    if (connected.length === 0) return;
    const counts = await this.options.countUnread(connected);
    for (const userId of connected) {
      if (!this.streams.has(userId)) continue;
      const count = counts.get(userId) ?? 0;
      if (this.lastUnread.get(userId) === count) continue;
      this.lastUnread.set(userId, count);
      this.broadcast(userId, count);
    }
  }

  private broadcast(userId: string, unreadCount: number): void {
    for (const stream of this.streams.get(userId) ?? []) this.send(stream, unreadCount);
  }

  private send(stream: Stream, unreadCount: number): void {
    if (!stream.closed) stream.sink.write(formatEvent('unread', { unreadCount }));
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task).catch((error: unknown) => this.options.onError(error));
    this.chain = run;
    return run;
  }

  private end(stream: Stream): void {
    if (stream.closed) return;
    this.remove(stream);
    try {
      stream.sink.close();
    } catch (error) {
      this.options.onError(error);
    }
  }

  private remove(stream: Stream): void {
    stream.closed = true;
    const set = this.streams.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) {
      this.streams.delete(stream.userId);
      this.lastUnread.delete(stream.userId);
    }
    if (this.streams.size === 0) this.stopTimers();
  }

  private heartbeat(): void {
    const tooOld = this.options.now() - this.options.maxStreamMs;
    for (const set of [...this.streams.values()]) {
      for (const stream of [...set]) {
        if (stream.openedAt <= tooOld) this.end(stream);
        else stream.sink.write(': heartbeat\n\n');
      }
    }
  }

  // Timers run only while someone is connected: an idle instance costs nothing.
  private startTimers(): void {
    if (!this.pollTimer) {
      this.pollTimer = setInterval(() => void this.pollNow(), this.options.pollIntervalMs);
      this.pollTimer.unref();
    }
    if (!this.heartbeatTimer) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), this.options.heartbeatMs);
      this.heartbeatTimer.unref();
    }
  }

  private stopTimers(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.pollTimer = null;
    this.heartbeatTimer = null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    liveEvents: LiveEvents;
  }
}

/** Decorates `app.liveEvents`; streams end before the server stops (preClose), or close would wait on them. */
export default fp(
  async function liveEvents(app: FastifyInstance) {
    const hub = new LiveEvents({
      countUnread: (userIds) => countUnreadByUser(app.db, userIds),
      activeSessions: (sessionIds) => activeSessionIds(app.db, sessionIds, app.config.sessionIdleMinutes),
      onError: (error) => app.log.error({ err: error }, 'live events: counting unread notifications failed'),
    });
    app.decorate('liveEvents', hub);
    app.addHook('preClose', async () => hub.closeAll());
  },
  { name: 'live-events' },
);
