/** Test double of the browser's EventSource (jsdom has none): tests open, fail and feed it by hand. */
import type { EventSourceFactory, EventSourceLike } from './flag-stream';

export class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  static readonly factory: EventSourceFactory = (url) => new FakeEventSource(url);

  static get latest(): FakeEventSource {
    const last = FakeEventSource.instances[FakeEventSource.instances.length - 1];
    if (!last) throw new Error('no EventSource was opened');
    return last;
  }

  static reset(): void {
    FakeEventSource.instances = [];
  }

  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  readonly url: string;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.(new Event('open'));
  }

  fail(): void {
    this.onerror?.(new Event('error'));
  }

  /** Delivers a server event; `data` is sent as JSON unless it is already a string. */
  emit(type: string, data: unknown): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data: text }));
  }
}
