/** Server-sent events: the wire format, and a stream of named events with a heartbeat the client can see. */
import { FLAG_STREAM_HEARTBEAT_MS } from '@portal/shared/core/feature-flags';

/** One event; `data` is JSON-encoded unless already a string of JSON. */
export function formatEvent(event: string, data: unknown): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  // JSON.stringify never emits a raw newline, so one data line carries the whole payload.
  return `event: ${event}\ndata: ${json}\n\n`;
}

/** The part of http.ServerResponse a stream writes to. */
export interface SseTarget {
  write(chunk: string): boolean;
  end(): void;
  readonly writableLength: number;
}

export interface SseChannelOptions {
  heartbeatMs?: number;
  /** Runs after each heartbeat (the flag stream re-checks the session there). */
  onHeartbeat?: () => void;
  /** A client that stops reading is dropped once this much is buffered for it. */
  maxBufferedBytes?: number;
}

export class SseChannel {
  readonly #target: SseTarget;
  readonly #maxBuffered: number;
  readonly #timer: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(target: SseTarget, options: SseChannelOptions = {}) {
    this.#target = target;
    this.#maxBuffered = options.maxBufferedBytes ?? 1 << 20;
    // A named event rather than an SSE comment: EventSource hides comments from scripts, and the
    // client's read timeout must see that the stream is alive.
    this.#timer = setInterval(() => {
      this.send('heartbeat', {});
      if (!this.#closed) options.onHeartbeat?.();
    }, options.heartbeatMs ?? FLAG_STREAM_HEARTBEAT_MS);
    this.#timer.unref?.();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** `data` is JSON-encoded unless already a string of JSON. */
  send(event: string, data: unknown): void {
    if (this.#closed) return;
    if (this.#target.writableLength > this.#maxBuffered) {
      this.close();
      return;
    }
    this.#target.write(formatEvent(event, data));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#target.end();
  }
}
