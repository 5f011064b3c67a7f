/** Normalising what the two dialects return, and small helpers every repository uses. */
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The form toISOString gives: what the api writes to SQLite. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Both dialects return the ISO string (SQLite the one we stored, PostgreSQL through
 * pgTimestampToIso, which writes out the Dates of its fallback too); a Date from elsewhere is
 * written out. A string already in
 * toISOString's form is returned as it is (a list reply converts two per row; parsing each into a
 * Date and back was a tenth of a task list's time); any other form is parsed and normalised.
 */
export function toIso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  return CANONICAL_ISO.test(value) ? value : new Date(value).toISOString();
}

/**
 * A timestamptz as PostgreSQL writes it in UTC ('2026-01-02 03:04:05.123456+00', the fraction from
 * none to six digits) in toISOString's form, without a Date or a regular expression: the pool reads
 * every timestamptz through this (database.ts), so PostgreSQL's rows hold the same text as SQLite's,
 * and toIso returns it as it is. The milliseconds are cut, not rounded, as a Date would cut them.
 * Any other form (another zone, a year past 9999 or before 1) goes to `otherwise`.
 */
export function pgTimestampToIso(text: string, otherwise: (text: string) => unknown): unknown {
  const end = text.length - 3;
  if (
    end >= 19 &&
    end <= 26 &&
    text.endsWith('+00') &&
    text[10] === ' ' &&
    text[4] === '-' &&
    text[13] === ':' &&
    (end === 19 || text[19] === '.')
  ) {
    const fraction = end === 19 ? '000' : (text.slice(20, end) + '00').slice(0, 3);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  const value = otherwise(text);
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** SQLite returns 0/1 for booleans, PostgreSQL true/false. */
export function toBool(value: boolean | number | null | undefined): boolean {
  return Boolean(value);
}

export function toNullableBool(value: boolean | number | null | undefined): boolean | null {
  return value === null || value === undefined ? null : Boolean(value);
}

/** count(*) is a string (bigint) on PostgreSQL and a number on SQLite. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return Number(value ?? 0);
}

/**
 * Whether a write failed on a unique constraint (SQLite and PostgreSQL): a concurrent writer took the
 * name between our check and our insert.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Whether a write failed on the unique index or constraint named `name` (or any of `names`). PostgreSQL
 * names it in `constraint`; SQLite in its message: "UNIQUE constraint failed: index 'name'" for an index on
 * an expression, "UNIQUE constraint failed: table.column, …" for columns (pass that text as the name).
 */
export function isUniqueViolationOf(error: unknown, ...names: string[]): boolean {
  if (!isUniqueViolation(error)) return false;
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  if (typeof constraint === 'string') return names.includes(constraint);
  const text = typeof message === 'string' ? message : '';
  return names.some((name) => text.includes(`index '${name}'`) || text.endsWith(`: ${name}`));
}

/**
 * Whether a write failed on a foreign key (SQLite and PostgreSQL): a concurrent writer deleted the row
 * ours names between our check and our write.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A LIKE pattern matching `search` anywhere, lower-cased, with `!` escaping % and _ (use `escape '!'`). */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Runs `work` in a transaction, or in the caller's when `db` already is one. */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
