/**
 * Exporting evidence requests (issue 8): what the list shows the caller with these filters and this
 * sort, every page (at most REQUEST_EXPORT_MAX_ROWS), as a file (request-file.ts). Contract:
 * shared/src/core/requests ("Import and export files").
 */
import type { Kysely } from 'kysely';
import { REQUEST_EXPORT_MAX_ROWS, type RequestFileFormat } from '@portal/shared/core/requests';
import type { CompanyRecord } from '../../db/companies';
import { requestScopeFor, type RequestCaller } from '../../db/request-access';
import { listRequestIds, requestSummariesByIds, type RequestListOptions } from '../../db/requests';
import type { Database } from '../../db/schema';
import { writeRequestFile, type ExportedRequest } from './request-file';
import { inChunks } from './request-import';

const today = () => new Date().toISOString().slice(0, 10);

/** A file name part from a company name: `Acme Corp.` -> `acme-corp`. */
function slug(name: string): string {
  const text = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return text || 'company';
}

/** The requests of `ids` with their descriptions, in the order of `ids`. */
async function exportedRequests(db: Kysely<Database>, ids: string[], staff: boolean): Promise<ExportedRequest[]> {
  const out: ExportedRequest[] = [];
  const day = today();
  for (const part of inChunks(ids)) {
    const [summaries, descriptions] = await Promise.all([
      requestSummariesByIds(db, part, { staff, today: day }),
      db.selectFrom('requests').select(['id', 'description']).where('id', 'in', part).execute(),
    ]);
    const byId = new Map(descriptions.map((d) => [d.id, d.description]));
    for (const summary of summaries) out.push({ ...summary, description: byId.get(summary.id) ?? null });
  }
  return out;
}

/** The requests `caller` sees in `company` with `query`, as a file of `format`, and the file's name. */
export async function exportRequestFile(
  db: Kysely<Database>,
  {
    company,
    caller,
    format,
    query,
  }: { company: CompanyRecord; caller: RequestCaller; format: RequestFileFormat; query: RequestListOptions['query'] },
): Promise<{ bytes: Buffer; fileName: string }> {
  const scope = await requestScopeFor(db, caller, company.id);
  const day = today();
  const { ids } = await listRequestIds(db, {
    companyId: company.id,
    scope,
    query,
    today: day,
    limit: REQUEST_EXPORT_MAX_ROWS,
    offset: 0,
  });
  const bytes = await writeRequestFile(format, await exportedRequests(db, ids, caller.isTevora));
  return { bytes, fileName: `requests-${slug(company.name)}-${day}.${format}` };
}
