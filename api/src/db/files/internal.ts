/**
 * What the files of this folder share: the sorts of the file lists (FileSort, which index.ts names)
 * and their ordering, the same for a folder's files and the company's documents.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { FILE_SORTS } from '@portal/shared/core/files';

export type FileSort = (typeof FILE_SORTS)[number];

/** Sorting of the file lists (alias `f`): the key, then the name, then the id, so pages never overlap. */
export function sortFiles<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: FileSort,
): SelectQueryBuilder<DB, TB, O> {
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  let q = query;
  if (key === 'updatedAt') q = q.orderBy(sql`f.updated_at`, direction);
  else if (key === 'size') q = q.orderBy(sql`f.size`, direction);
  const byName = key === 'name' ? direction : 'asc';
  return q.orderBy(sql`lower(f.name)`, byName).orderBy(sql`f.id`, byName);
}
