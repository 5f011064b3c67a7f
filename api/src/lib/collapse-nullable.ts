/**
 * zod writes a nullable value as `anyOf: [X, { type: 'null' }]` in JSON Schema. fast-json-stringify
 * serializes an `anyOf` by testing each value against the branches with ajv (a date's format check,
 * a pattern) before writing it: on a task list page, a few such fields a row. When X is one plain
 * type, the same answer is `{ ...X, type: [X.type, 'null'] }`, which fast-json-stringify writes by
 * the value's type alone: the same JSON, about half the time for those fields.
 *
 * Only the schema fast-json-stringify compiles changes; the contract, the OpenAPI document and the
 * checks of answers in tests keep zod's form.
 */
type Json = Record<string, unknown>;

const PLAIN_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** X of `anyOf: [X, { type: 'null' }]` (either order) when X is one plain type with nothing else nullable in it. */
function nullableOf(schema: Json): Json | null {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return null;
  const nulls = branches.filter((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1);
  if (nulls.length !== 1) return null;
  const [other] = branches.filter((b) => !nulls.includes(b));
  if (!isObject(other) || typeof other.type !== 'string' || !PLAIN_TYPES.has(other.type)) return null;
  if ('anyOf' in other || 'oneOf' in other || 'allOf' in other || 'enum' in other || 'const' in other) return null;
  return other;
}

/** A copy of `schema` with every nullable plain type written as a list of types (see above). */
export function collapseNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(collapseNullable);
  if (!isObject(schema)) return schema;
  const inner = nullableOf(schema);
  if (inner) {
    const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'anyOf'));
    return { ...rest, ...inner, type: [inner.type, 'null'] };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, collapseNullable(value)]));
}
