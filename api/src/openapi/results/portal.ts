/** Result schemas (see index.ts) of health, portal config, feature flags, system settings, notifications, transfers, documents and reports. */
import type { z } from 'zod';

export const PORTAL_RESULTS: Record<string, z.ZodType> = {};
