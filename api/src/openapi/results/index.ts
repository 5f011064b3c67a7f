/**
 * The JSON bodies of success answers, as zod schemas, by operation (`METHOD /path` as in
 * operations.ts): the OpenAPI document shows them and the fuzzer checks every 2xx answer of these
 * operations against them, field by field (no field missing, none of another type, none
 * undocumented: strict objects). An operation without one documents `{}`.
 *
 * Each schema is tied to the shared TypeScript contract the web reads (`assertSame` in common.ts
 * fails to compile when the two differ either way), so the document, the check and the web cannot
 * drift apart. One file per area; each has a test calling its operations on the seeded data.
 */
import type { z } from 'zod';
import { MORE_WORK_RESULTS } from './more-work';
import { PEOPLE_RESULTS } from './people';
import { PORTAL_RESULTS } from './portal';
import { REQUESTS_RESULTS } from './requests';
import { WORK_RESULTS } from './work';

export const RESULTS: Record<string, z.ZodType> = {
  ...WORK_RESULTS,
  ...MORE_WORK_RESULTS,
  ...PEOPLE_RESULTS,
  ...PORTAL_RESULTS,
  ...REQUESTS_RESULTS,
};
