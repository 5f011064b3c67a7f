/**
 * `multipart/form-data` bodies. Routes read the parts themselves (lib/multipart.ts, lib/uploads.ts)
 * with their own limits; nothing is buffered here.
 */
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** Options @fastify/autoload registers the plugin with (read from the app's config). */
export const autoConfig = (app: FastifyInstance): FastifyMultipartOptions => ({
  limits: { fileSize: app.config.uploadMaxBytes, files: 20, fields: 50, parts: 80 },
});

export default multipart;
