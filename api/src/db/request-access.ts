/**
 * Who sees and who acts on an evidence request (issue 8; the rules are in shared/src/core/requests).
 * One place for the rule, used by the `request` policy (one request) and by every list, export and
 * bulk change (many requests, as a SQL filter), so a list never shows what the detail would refuse.
 */
import { sql, type ExpressionBuilder, type Expression, type SqlBool, type Kysely } from 'kysely';
import type { RequestStatus } from '@portal/shared/core/requests';
import { findCompanyRole, findVisibleCompany, type CompanyRecord } from './companies';
import { moduleAccessIn } from './module-access';
import type { Database } from './schema';
import type { UserRecord } from './users';
import { HttpError } from '../lib/http-error';

export type RequestCaller = Pick<UserRecord, 'id' | 'isTevora' | 'isAuditor' | 'isAdmin'>;

/** What the `request` policy resolved. */
export interface RequestAccess {
  request: {
    id: string;
    companyId: string;
    projectId: string | null;
    reference: string;
    title: string;
    status: RequestStatus;
    requesterId: string | null;
  };
  company: CompanyRecord;
  /** Staff who are not auditors: create, edit, assign, review, cancel, reopen, internal comments. */
  manage: boolean;
  /** Client users who see the request: submit, upload and delete their own evidence. */
  respond: boolean;
  /** The caller is staff (auditors included): sees internal notes and comments. */
  staff: boolean;
}

/**
 * How a caller sees the requests of a company: `all` (staff who are not auditors, client company
 * admins), or `scoped` (auditors: requests of projects they hold a role on; other clients: assigned to
 * them directly or through a team, or of a project they hold a role on).
 */
export interface RequestScope {
  callerId: string;
  all: boolean;
  /** Auditors see only requests of their projects, never through assignment. */
  auditor: boolean;
}

export async function requestScopeFor(
  db: Kysely<Database>,
  caller: RequestCaller,
  companyId: string,
): Promise<RequestScope> {
  if (caller.isTevora) return { callerId: caller.id, all: !caller.isAuditor, auditor: caller.isAuditor };
  const role = await findCompanyRole(db, companyId, caller.id);
  return { callerId: caller.id, all: role === 'admin', auditor: false };
}

/**
 * The SQL condition "the caller of `scope` sees this row of `requests`" (use on a query whose `requests`
 * table is named `requests`). The company condition is the caller's to add.
 */
export function requestVisible(eb: ExpressionBuilder<Database, 'requests'>, scope: RequestScope): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`1 = 1`;
  const onProject = eb.exists(
    eb
      .selectFrom('project_members')
      .select(sql`1`.as('one'))
      .whereRef('project_members.project_id', '=', 'requests.project_id')
      .where('project_members.user_id', '=', scope.callerId),
  );
  if (scope.auditor) return onProject;
  return eb.or([
    onProject,
    eb.exists(
      eb
        .selectFrom('request_assignees')
        .select(sql`1`.as('one'))
        .whereRef('request_assignees.request_id', '=', 'requests.id')
        .where('request_assignees.user_id', '=', scope.callerId),
    ),
    eb.exists(
      eb
        .selectFrom('request_teams')
        .innerJoin('team_members', 'team_members.team_id', 'request_teams.team_id')
        .select(sql`1`.as('one'))
        .whereRef('request_teams.request_id', '=', 'requests.id')
        .where('team_members.user_id', '=', scope.callerId),
    ),
  ]);
}

/**
 * The caller's access to a request, or null when it is not visible to them (missing, another company's,
 * or not theirs to see). Throws 403 `module_access_denied` when the requests module is off for them.
 */
export async function requestAccessFor(
  db: Kysely<Database>,
  caller: RequestCaller,
  requestId: string,
): Promise<RequestAccess | null> {
  const row = await db
    .selectFrom('requests')
    .select(['id', 'company_id', 'project_id', 'reference', 'title', 'status', 'requester_id'])
    .where('id', '=', requestId)
    .executeTakeFirst();
  if (!row) return null;
  const company = await findVisibleCompany(db, caller, row.company_id);
  if (!company) return null;
  const modules = await moduleAccessIn(db, caller, company);
  if (!modules.requests) throw new HttpError(403, 'module_access_denied');
  const scope = await requestScopeFor(db, caller, company.id);
  if (!scope.all) {
    const visible = await db
      .selectFrom('requests')
      .select('id')
      .where('id', '=', row.id)
      .where((eb) => requestVisible(eb, scope))
      .executeTakeFirst();
    if (!visible) return null;
  }
  const manage = caller.isTevora && !caller.isAuditor;
  return {
    request: {
      id: row.id,
      companyId: row.company_id,
      projectId: row.project_id,
      reference: row.reference,
      title: row.title,
      status: row.status,
      requesterId: row.requester_id,
    },
    company,
    manage,
    respond: !caller.isTevora,
    staff: caller.isTevora,
  };
}
