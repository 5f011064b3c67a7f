/**
 * fastify's hello world, the yardstick of bench/throughput: `{ hello: 'world' }` on GET /, no logger,
 * no plugin (as fastify's README starts). Listens on 127.0.0.1:PORT; run by run.ts in a process of its own.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
