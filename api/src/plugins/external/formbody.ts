/** `application/x-www-form-urlencoded` bodies: the sign-in and password pages post forms (routes/auth). */
import formbody, { type FastifyFormbodyOptions } from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

/** Options @fastify/autoload registers the plugin with (read from the app's config). */
export const autoConfig = (app: FastifyInstance): FastifyFormbodyOptions => ({ bodyLimit: app.config.bodyLimitBytes });

export default formbody;
