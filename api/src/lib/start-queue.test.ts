import * as net from 'node:net';
import { createStartQueue } from './start-queue';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createStartQueue', () => {
  it('starts requests in the order they were queued', async () => {
    const queue = createStartQueue();
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) queue.enqueue(() => started.push(name));
    expect(queue.waiting).toBe(4);
    while (queue.waiting > 0) await nextTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('starts one request per turn of the event loop, so other callbacks run between two starts', async () => {
    const queue = createStartQueue();
    const events: string[] = [];
    queue.enqueue(() => events.push('first'));
    queue.enqueue(() => events.push('second'));
    setImmediate(() => events.push('other work'));
    while (queue.waiting > 0) await nextTurn();
    expect(events).toEqual(['first', 'other work', 'second']);
  });

  it('reads data that arrives on a socket while requests wait, before the next one starts', async () => {
    // a request that is running blocks the loop; data sent meanwhile is read before the next start
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const events: string[] = [];
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const client = net.connect(port, '127.0.0.1');
    const socket = await accepted;
    socket.on('data', () => events.push('socket read'));
    try {
      const queue = createStartQueue();
      queue.enqueue(() => {
        events.push('first');
        client.write('x');
        // the first request runs long enough for the byte to arrive
        const until = Date.now() + 20;
        while (Date.now() < until);
      });
      queue.enqueue(() => events.push('second'));
      while (queue.waiting > 0) await nextTurn();
      expect(events).toEqual(['first', 'socket read', 'second']);
    } finally {
      client.destroy();
      socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('starts again after the line ran empty', async () => {
    const queue = createStartQueue();
    const started: number[] = [];
    queue.enqueue(() => started.push(1));
    while (queue.waiting > 0) await nextTurn();
    queue.enqueue(() => started.push(2));
    queue.enqueue(() => started.push(3));
    while (queue.waiting > 0) await nextTurn();
    expect(started).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });
});
