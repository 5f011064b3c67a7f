/** Result schemas (see index.ts) of users, companies, company users, teams and the audit log. */
import type { z } from 'zod';

export const PEOPLE_RESULTS: Record<string, z.ZodType> = {};
