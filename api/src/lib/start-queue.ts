/**
 * Requests start in the order they arrived, one per turn of the event loop.
 *
 * Node reads sockets in the order epoll reports them, and epoll (level-triggered, as libuv uses it)
 * keeps the sockets it reported last time at the head of its ready list. On a busy api every client
 * of the last batch has sent its next request by the time the batch is done, so a request that
 * arrived on another connection just after a poll waited behind two whole batches: measured with 10
 * connections on SQLite, a request waited up to 20 request-times before its first hook ran, while
 * others sent later went first.
 *
 * The queue takes each request as soon as its headers are read (cheap: nothing runs yet) and starts
 * one per turn: the rest wait for a later turn, after the event loop has polled the sockets again, so
 * requests that arrive meanwhile are read and take their place in line behind the waiting ones. A
 * started request runs until its first real wait (on SQLite: to its answer; on PostgreSQL: its first
 * query), so the database still sees many requests at once.
 */
export interface StartQueue {
  /** Calls `start` when every request that was queued before it has started. */
  enqueue(start: () => void): void;
  /** How many requests wait to start. */
  readonly waiting: number;
}

export function createStartQueue(): StartQueue {
  const queue: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  const startNext = () => {
    const start = queue[head];
    queue[head++] = undefined as unknown as () => void;
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
      scheduled = false;
    } else {
      // the next one starts on a later turn, after the sockets were polled
      setImmediate(startNext);
    }
    start();
  };
  return {
    enqueue(start) {
      queue.push(start);
      if (!scheduled) {
        scheduled = true;
        setImmediate(startNext);
      }
    },
    get waiting() {
      return queue.length - head;
    },
  };
}
