/**
 * Bodies that follow an operation's JSON Schema (its OpenAPI request body): the fuzzer's "valid"
 * requests. Random bodies are almost always refused at validation, so without these most writes
 * would never answer 2xx, and their success bodies, tenant checks and side effects would go
 * untested. Ids come from the seeded data (a field named `...Id`/`...Ids` gets real ids), so a
 * valid body can also name something that exists.
 */
import fc from 'fast-check';

type JsonSchema = Record<string, unknown>;

/** How many items an array, and how many characters a string, gets at most (the schema may allow far more). */
const MAX_ITEMS = 3;
const MAX_TEXT = 40;

const day = fc.date({
  min: new Date('2020-01-01T00:00:00Z'),
  max: new Date('2030-12-31T00:00:00Z'),
  noInvalidDate: true,
});
const text = (min: number, max: number) =>
  fc
    .stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,_-]*$/)
    .map((s) => s.trim() || 'Fuzz')
    .map((s) => {
      const padded = s.length < min ? s.padEnd(min, 'x') : s;
      return padded.slice(0, Math.max(min, Math.min(max, MAX_TEXT)));
    });

/** Real ids for a field named `key` (`projectId`, `assigneeIds`...), or none. */
export type IdsFor = (key: string) => readonly string[];

function stringOf(schema: JsonSchema, key: string, ids: IdsFor): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.format === 'date') return day.map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return day.map((d) => d.toISOString());
  if (schema.format === 'email') return fc.nat({ max: 9999 }).map((n) => `fuzz${n}@example.com`);
  const real = /Id$/.test(key) ? ids(key) : [];
  if (real.length) return fc.constantFrom(...real);
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : MAX_TEXT;
  if (typeof schema.pattern === 'string') {
    try {
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= max);
    } catch {
      // a pattern JavaScript cannot read: plain text
    }
  }
  return text(min, max);
}

function numberOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : -1000;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : 1000;
  const low = Math.max(min, -1e6);
  const high = Math.min(max, 1e6);
  return schema.type === 'integer'
    ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) })
    : fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
}

/** Values that follow `schema`: a best effort over the JSON Schema that zod writes (objects, arrays, strings, numbers, enums, unions). */
export function validValue(schema: JsonSchema | undefined, ids: IdsFor, key = '', depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && variants.length)
    return fc.oneof(...variants.map((v) => validValue(v, ids, key, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return validValue(schema.allOf[0] as JsonSchema, ids, key, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const shape = Object.fromEntries(
        Object.entries(properties).map(([name, s]) => [name, validValue(s, ids, name, depth + 1)]),
      );
      return fc.record(shape, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
    }
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const itemKey = /Ids$/.test(key) ? key.slice(0, -1) : key;
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : MAX_ITEMS, MAX_ITEMS),
      );
      return fc.array(validValue(items, ids, itemKey, depth + 1), { minLength, maxLength });
    }
    case 'string':
      return stringOf(schema, key, ids);
    case 'integer':
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.constant(null);
  }
}
