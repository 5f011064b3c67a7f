import type { FastifyInstance } from 'fastify';

/** Placeholder: filled in by issue 4. */
export default async function usersAdminRoutes(_app: FastifyInstance) {}
