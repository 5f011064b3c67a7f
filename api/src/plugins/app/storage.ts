/** `app.storage`: where file bytes are kept (lib/storage.ts): on disk, under DATA_DIR/files. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createStorage } from '../../lib/storage';

export default fp(
  async function storage(app: FastifyInstance) {
    app.decorate('storage', createStorage(app.config));
  },
  { name: 'storage' },
);
