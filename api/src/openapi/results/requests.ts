/** Result schemas (see index.ts) of requests, practices and task trackers. */
import type { z } from 'zod';

export const REQUESTS_RESULTS: Record<string, z.ZodType> = {};
