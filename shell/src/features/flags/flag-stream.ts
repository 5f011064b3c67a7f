/**
 * The live flag stream (server-sent events) with its own reconnect: on an error or when nothing (not
 * even a heartbeat) arrived for the read timeout, close and reconnect after 1000 ms, doubling each
 * time up to 30000 ms, with jitter; a successful open starts over at 1000 ms.
 */
import { FLAG_SERVICE_DEFAULTS } from '@portal/shared/core/feature-flags';

/** The part of the browser's EventSource the stream uses (tests give a fake). */
export interface EventSourceLike {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/** The browser's EventSource, looked up when a provider is made (null where there is none, as in jsdom). */
export function browserEventSource(): EventSourceFactory | null {
  if (typeof EventSource === 'undefined') return null;
  return (url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike;
}

/**
 * "Equal jitter": between half and all of the exponential delay, so clients cut off together do not
 * come back together, and the delay never exceeds the cap. `attempt` 0 is the first reconnect.
 */
export function reconnectDelay(
  attempt: number,
  random: () => number = Math.random,
  initialMs: number = FLAG_SERVICE_DEFAULTS.streamReconnectDelayMs,
  maxMs: number = FLAG_SERVICE_DEFAULTS.streamReconnectMaxDelayMs,
): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling - random() * (ceiling / 2));
}

export interface FlagStreamOptions {
  url: string;
  open: EventSourceFactory;
  /** The parsed data of each `flags` event. */
  onFlags(data: unknown): void;
  logger?: Pick<Console, 'warn' | 'error'>;
  random?: () => number;
  readTimeoutMs?: number;
}

export class FlagStream {
  readonly #options: FlagStreamOptions;
  #source: EventSourceLike | null = null;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #readTimer: ReturnType<typeof setTimeout> | null = null;
  #running = false;

  constructor(options: FlagStreamOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#attempt = 0;
    this.#connect();
  }

  stop(): void {
    this.#running = false;
    this.#clearTimers();
    this.#source?.close();
    this.#source = null;
  }

  #connect(): void {
    this.#reconnectTimer = null;
    if (!this.#running) return;
    const source = this.#options.open(this.#options.url);
    this.#source = source;
    const alive = () => this.#armReadTimeout();
    source.onopen = () => {
      this.#attempt = 0;
      alive();
    };
    source.onerror = () => this.#reconnect('the flag stream failed');
    source.addEventListener('heartbeat', alive);
    source.addEventListener('flags', (event) => {
      alive();
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        this.#options.logger?.error('Feature flags: a stream message was not JSON; it was ignored.', error);
        return;
      }
      this.#options.onFlags(data);
    });
    // A connection that never opens times out too.
    alive();
  }

  #armReadTimeout(): void {
    if (this.#readTimer) clearTimeout(this.#readTimer);
    const timeout = this.#options.readTimeoutMs ?? FLAG_SERVICE_DEFAULTS.streamReadTimeoutMs;
    this.#readTimer = setTimeout(() => this.#reconnect(`the flag stream sent nothing for ${timeout} ms`), timeout);
  }

  /** Our own backoff rather than EventSource's fixed retry: close, wait, open a new one. */
  #reconnect(reason: string): void {
    if (!this.#running) return;
    this.#source?.close();
    this.#source = null;
    this.#clearTimers();
    const delay = reconnectDelay(this.#attempt, this.#options.random);
    this.#attempt += 1;
    this.#options.logger?.warn(`Feature flags: ${reason}; reconnecting in ${delay} ms.`);
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }

  #clearTimers(): void {
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    if (this.#readTimer) clearTimeout(this.#readTimer);
    this.#reconnectTimer = null;
    this.#readTimer = null;
  }
}
