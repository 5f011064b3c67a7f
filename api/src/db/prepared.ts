import { createHash, randomBytes } from 'node:crypto';
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema';

/** A value of a prepared query: a scalar, or a list (for `in (…)`: one SQL text per length). */
export type PreparedArg = string | number | readonly string[];

/**
 * The SQL texts of prepared queries planned once, with a name for each: PostgreSQL connections
 * prepare them once by name (database.ts) and, as database.ts sets `plan_cache_mode` on every
 * connection, plan them once too, with a plan for any value (a generic plan). The same text always
 * gets the same name. A query planned per call is not named: the server plans it on each call, for
 * the values of that call.
 */
export const statementNames = new Map<string, string>();

/**
 * How PostgreSQL plans a prepared query (SQLite prepares and plans each text once either way):
 * - `once`: one plan per connection, whatever the values. For queries whose best plan is the same
 *   for any value: lookups by key, and the lists' default pages (walk an index in order, stop after
 *   the page). Planning a task list page costs PostgreSQL about as much as running it, and the
 *   planner keeps replanning a query with LIMIT and OFFSET values on every call when left to choose
 *   (it prices a plan for unknown values as reading a tenth of the rows).
 * - `per call`: planned on each call for its values. For queries whose best plan depends on them: a
 *   filter that matches most of a small project's tasks or few of a large one's, a sort on an
 *   expression. A plan made for one project can be many times slower for another (measured: an
 *   unassigned filter 1.6 ms planned per call and 47 ms with one plan, on a project of 40 tasks).
 */
export type Planning = 'once' | 'per call';

interface Template {
  sql: string;
  /** Per compiled parameter: the constant the builder put there, or where the caller's value goes. */
  parameters: ({ constant: unknown } | { arg: number; item: number | null })[];
}

// A stand-in names its argument (and item of a list); the random part keeps a real value from ever
// being taken for one.
const PREFIX = `prepared-arg-${randomBytes(8).toString('hex')}:`;
const STAND_IN = new RegExp(`^${PREFIX}(\\d+)(?::(\\d+))?$`);
const standIn = (arg: number, item?: number) => `${PREFIX}${arg}${item === undefined ? '' : `:${item}`}`;

/**
 * A query that is built and compiled once per database and shape (the lengths of its lists), then
 * run with the caller's values. Kysely builds an immutable tree and compiles it on every call: 15 to
 * 35 µs for each of the small lookups every request makes, about a sixth of a task list request on
 * SQLite. Use it for queries whose SQL depends only on the lengths of their lists.
 *
 * `build` receives stand-ins for the values and must pass each of them to Kysely as it is (a
 * comparison value, a list for `in`), not a value computed from it; a stand-in that does not reach
 * the compiled parameters unchanged throws when the query is first prepared.
 */
export function preparedQuery<A extends PreparedArg[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
  planning: Planning = 'once',
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const templates = new WeakMap<Kysely<Database>, Map<string, Template>>();
  const prepare = (db: Kysely<Database>, args: A): Template => {
    const standIns = args.map((a, i) =>
      typeof a === 'object' ? a.map((_, j) => standIn(i, j)) : standIn(i),
    ) as unknown as A;
    const compiled = build(db, ...standIns).compile();
    const seen = new Set<string>();
    const parameters = compiled.parameters.map((p) => {
      const m = typeof p === 'string' ? STAND_IN.exec(p) : null;
      if (!m) {
        if (typeof p === 'string' && p.includes(PREFIX))
          throw new Error(`preparedQuery: a value was changed before it reached the query (${JSON.stringify(p)})`);
        return { constant: p };
      }
      seen.add(p as string);
      return { arg: Number(m[1]), item: m[2] === undefined ? null : Number(m[2]) };
    });
    const expected = (standIns as unknown as (string | string[])[]).flat();
    const missing = expected.filter((s) => !seen.has(s));
    if (missing.length > 0)
      throw new Error(`preparedQuery: ${missing.length} value(s) did not reach the query as parameters`);
    if (planning === 'once' && !statementNames.has(compiled.sql)) {
      statementNames.set(
        compiled.sql,
        `prepared_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 24)}`,
      );
    }
    return { sql: compiled.sql, parameters };
  };
  return async (db, ...args) => {
    let byShape = templates.get(db);
    if (!byShape) templates.set(db, (byShape = new Map()));
    const shape = args.map((a) => (typeof a === 'object' ? a.length : '.')).join(',');
    let template = byShape.get(shape);
    if (!template) byShape.set(shape, (template = prepare(db, args)));
    const parameters = template.parameters.map((p) =>
      'constant' in p ? p.constant : p.item === null ? args[p.arg] : (args[p.arg] as readonly string[])[p.item],
    );
    const result = await db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  };
}

/** The values of a preparedVariants query, by name; those left undefined are not in its SQL. */
export type PreparedValues = Record<string, PreparedArg | undefined>;

/**
 * preparedQuery for a query whose SQL also depends on which of its values are given (filters, a
 * cursor) and on options that are not values (a sort, a direction): one prepared query per variant,
 * that is per `variantOf(options)` and set of given values. `options` must hold nothing that changes
 * the SQL but what `variantOf` spells out: a variant is built once, with the options of its first call
 * and stand-ins for its values, and `build` must use each given value as preparedQuery's builders do.
 * `planningOf` decides each variant's Planning, from the same options and the names of its given values.
 *
 * At most MAX_VARIANTS variants are kept (per preparedVariants): a caller cycling through rare
 * combinations of filters cannot grow the api's memory, or PostgreSQL's named statements, without
 * bound. A variant beyond them is built and compiled on each call, as an unprepared query is.
 */
export const MAX_VARIANTS = 64;

export function preparedVariants<O, V extends PreparedValues, R>(
  variantOf: (options: O) => string,
  build: (db: Kysely<Database>, options: O, values: V) => Compilable<R>,
  /** How PostgreSQL plans a variant, from its options and the names of its given values (`once` when left out). */
  planningOf: (options: O, given: readonly string[]) => Planning = () => 'once',
): (db: Kysely<Database>, options: O, values: V) => Promise<R[]> {
  const variants = new Map<
    string,
    { names: string[]; run: (db: Kysely<Database>, ...args: PreparedArg[]) => Promise<R[]> }
  >();
  return (db, options, values) => {
    const names = Object.keys(values)
      .filter((name) => values[name] !== undefined)
      .sort();
    const key = `${variantOf(options)}\n${names.join(',')}`;
    let variant = variants.get(key);
    if (!variant && variants.size >= MAX_VARIANTS) {
      return db.executeQuery(build(db, options, values).compile()).then((result) => result.rows);
    }
    if (!variant) {
      const run = preparedQuery(
        (db, ...args: PreparedArg[]) =>
          build(db, options, Object.fromEntries(names.map((name, i) => [name, args[i]])) as V),
        planningOf(options, names),
      );
      variants.set(key, (variant = { names, run }));
    }
    return variant.run(db, ...variant.names.map((name) => values[name]!));
  };
}
