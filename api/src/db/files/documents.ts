/**
 * Documents: every file of the company's projects the viewer sees (an auditor, those of their
 * projects), searched by file or project name, with each file's project and folder path.
 */
import { sql, type Kysely } from 'kysely';
import type { DocumentRow } from '@portal/shared/core/files';
import type { ProjectViewer } from '../projects';
import type { Database } from '../schema';
import { likePattern, toCount } from '../values';
import { sortFiles } from './internal';
import { filesByIds, type FileListQuery } from './listing';

export interface DocumentListQuery extends FileListQuery {
  projectId?: string;
}

export async function listCompanyFiles(
  db: Kysely<Database>,
  companyId: string,
  viewer: ProjectViewer,
  query: DocumentListQuery,
): Promise<{ results: DocumentRow[]; total: number }> {
  let base = db
    .selectFrom('files as f')
    .innerJoin('projects as p', 'p.id', 'f.project_id')
    .where('f.company_id', '=', companyId);
  if (viewer.isAuditor) {
    base = base.where(
      'f.project_id',
      'in',
      db.selectFrom('project_members').select('project_id').where('user_id', '=', viewer.id),
    );
  }
  if (query.projectId) base = base.where('f.project_id', '=', query.projectId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where(
      sql<boolean>`(lower(f.name) like ${pattern} escape '!' or lower(p.title) like ${pattern} escape '!')`,
    );
  }
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await sortFiles(base.select(['f.id', 'f.folder_id', 'p.id as project_id', 'p.title']), query.sort)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const files = new Map(
    (
      await filesByIds(
        db,
        rows.map((r) => r.id),
      )
    ).map((f) => [f.id, f]),
  );
  const projectIds = [...new Set(rows.map((r) => r.project_id))];
  const folders = projectIds.length
    ? await db.selectFrom('folders').select(['id', 'parent_id', 'name']).where('project_id', 'in', projectIds).execute()
    : [];
  const folderById = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (folderId: string | null): string => {
    const names: string[] = [];
    const seen = new Set<string>();
    for (
      let at = folderId ? folderById.get(folderId) : undefined;
      at?.parent_id && !seen.has(at.id);
      at = folderById.get(at.parent_id)
    ) {
      seen.add(at.id);
      names.unshift(at.name);
    }
    return names.join(' / ');
  };
  return {
    results: rows.flatMap((r): DocumentRow[] => {
      const file = files.get(r.id);
      return file ? [{ ...file, project: { id: r.project_id, title: r.title }, folderPath: pathOf(r.folder_id) }] : [];
    }),
    total: toCount(totalRow.n as number | string),
  };
}
