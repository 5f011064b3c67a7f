/** Result schemas (see index.ts) of projects, tasks, controls, files, folders, roster and interviews beyond work.ts. */
import type { z } from 'zod';

export const MORE_WORK_RESULTS: Record<string, z.ZodType> = {};
