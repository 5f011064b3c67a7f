/**
 * The field and query parameter names the fuzzer puts in its requests: every key of every object
 * schema the shared contracts export (bodies), and the keys of the query schemas (`...QuerySchema`),
 * so generated bodies and queries use the names the api really reads.
 */
import type { z } from 'zod';
import * as feature from '@portal/shared/core/feature-flags';
import * as files from '@portal/shared/core/files';
import * as interviews from '@portal/shared/core/interviews';
import * as practices from '@portal/shared/core/practices';
import * as projects from '@portal/shared/core/projects';
import * as reports from '@portal/shared/core/reports';
import * as requests from '@portal/shared/core/requests';
import * as schemas from '@portal/shared/core/schemas';
import * as settings from '@portal/shared/core/settings';

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  left?: unknown;
  right?: unknown;
  options?: unknown[];
  element?: unknown;
}

const defOf = (value: unknown): Def | null => {
  const zod = (value as { _zod?: { def?: Def } } | null)?._zod;
  return zod?.def ?? null;
};

/** The object keys a schema reads, through optional, default, pipe, union and intersection wrappers. */
function keysOf(schema: unknown, into: Set<string>, depth = 0): void {
  const def = defOf(schema);
  if (!def || depth > 6) return;
  if (def.type === 'object' && def.shape) {
    for (const [key, field] of Object.entries(def.shape)) {
      into.add(key);
      keysOf(field, into, depth + 1);
    }
  }
  for (const inner of [def.innerType, def.in, def.out, def.left, def.right, def.element, ...(def.options ?? [])]) {
    if (inner) keysOf(inner, into, depth + 1);
  }
}

const bodies = new Set<string>();
const queries = new Set<string>([
  'page',
  'pageSize',
  'sort',
  'order',
  'search',
  'q',
  'status',
  'from',
  'to',
  'projectId',
  'today',
  'format',
]);
for (const module of [feature, files, interviews, practices, projects, reports, requests, schemas, settings]) {
  for (const [name, value] of Object.entries(module as Record<string, unknown>)) {
    if (!defOf(value)) continue;
    keysOf(value as z.ZodType, /query/i.test(name) ? queries : bodies);
  }
}

export const fieldNames: readonly string[] = [...bodies].sort();

/** The keys one schema reads (an operation's body, form fields or query). */
export function schemaKeys(schema: z.ZodType | undefined): string[] {
  const keys = new Set<string>();
  if (schema) keysOf(schema, keys);
  return [...keys].sort();
}
export const queryNames: readonly string[] = [...queries].sort();
