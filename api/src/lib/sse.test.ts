import { FLAG_SERVICE_DEFAULTS, FLAG_STREAM_HEARTBEAT_MS } from '@portal/shared/core/feature-flags';
import { SseChannel, type SseTarget } from './sse';

function target(): SseTarget & { chunks: string[]; ended: boolean; buffered: number } {
  const t = {
    chunks: [] as string[],
    ended: false,
    buffered: 0,
    write(chunk: string) {
      t.chunks.push(chunk);
      return true;
    },
    end() {
      t.ended = true;
    },
    get writableLength() {
      return t.buffered;
    },
  };
  return t;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('SseChannel', () => {
  it('writes named events with one JSON data line', () => {
    const out = target();
    const channel = new SseChannel(out);
    channel.send('flags', { flags: { a: { value: 'two\nlines', reason: 'STATIC' } }, version: '1' });
    expect(out.chunks).toEqual([
      'event: flags\ndata: {"flags":{"a":{"value":"two\\nlines","reason":"STATIC"}},"version":"1"}\n\n',
    ]);
    channel.close();
  });

  it('sends a heartbeat event every 25 s, well inside the client read timeout, until closed', () => {
    expect(FLAG_STREAM_HEARTBEAT_MS * 4).toBeLessThan(FLAG_SERVICE_DEFAULTS.streamReadTimeoutMs);
    const out = target();
    const onHeartbeat = jest.fn();
    const channel = new SseChannel(out, { onHeartbeat });
    jest.advanceTimersByTime(FLAG_STREAM_HEARTBEAT_MS - 1);
    expect(out.chunks).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(out.chunks).toEqual(['event: heartbeat\ndata: {}\n\n']);
    expect(onHeartbeat).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(FLAG_STREAM_HEARTBEAT_MS);
    expect(out.chunks).toHaveLength(2);

    channel.close();
    expect(out.ended).toBe(true);
    jest.advanceTimersByTime(FLAG_STREAM_HEARTBEAT_MS * 3);
    channel.send('flags', {});
    expect(out.chunks).toHaveLength(2);
    expect(onHeartbeat).toHaveBeenCalledTimes(2);
  });

  it('drops a client that stops reading', () => {
    const out = target();
    const channel = new SseChannel(out, { maxBufferedBytes: 10 });
    out.buffered = 11;
    channel.send('flags', {});
    expect(out.chunks).toEqual([]);
    expect(out.ended).toBe(true);
    expect(channel.closed).toBe(true);
  });
});
