/**
 * Who may still hear about an evidence request (issue 8): the recipients of its notices, asked for many
 * users and requests at once. Contract: shared/src/core/requests ("Notifications").
 */
import type { Kysely } from 'kysely';
import { effectiveModuleAccess } from '@portal/shared/core/modules';
import { findCompanyById, type CompanyRecord } from '../../db/companies';
import { requestVisible, type RequestScope } from '../../db/request-access';
import type { Database } from '../../db/schema';
import { toBool, toNullableBool } from '../../db/values';
import type { RequestNotice } from './notice-texts';

export interface RequestRecipient {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: 'active' | 'suspended';
  isTevora: boolean;
  isAuditor: boolean;
  isAdmin: boolean;
}

/** Ids per query of the audience's batches. */
const BATCH = 500;

/**
 * Who may still hear about a request: active users who see it now (the company theirs, the requests
 * module on for them there, and the request visible to them: the rules of db/companies.ts,
 * db/module-access.ts and db/request-access.ts, asked for many users at once). Answers are kept, so
 * one change or one sweep asks each question once.
 */
export class RequestAudience {
  private readonly users = new Map<string, RequestRecipient | null>();
  private readonly companies = new Map<string, Promise<CompanyRecord | null>>();
  private readonly scopes = new Map<string, RequestScope | null>();
  private readonly visible = new Map<string, boolean>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The users of `ids` (unknown ids: null), loaded once. */
  async usersOf(ids: string[]): Promise<Map<string, RequestRecipient | null>> {
    const missing = [...new Set(ids)].filter((id) => !this.users.has(id));
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'status', 'is_tevora', 'is_auditor', 'is_admin'])
        .where('id', 'in', batch)
        .execute();
      for (const id of batch) this.users.set(id, null);
      for (const row of rows) {
        this.users.set(row.id, {
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          status: row.status,
          isTevora: toBool(row.is_tevora),
          isAuditor: toBool(row.is_auditor),
          isAdmin: toBool(row.is_admin),
        });
      }
    }
    return new Map(ids.map((id) => [id, this.users.get(id) ?? null]));
  }

  private companyOf(companyId: string): Promise<CompanyRecord | null> {
    let company = this.companies.get(companyId);
    if (!company) {
      company = findCompanyById(this.db, companyId);
      this.companies.set(companyId, company);
    }
    return company;
  }

  /**
   * Learns how each of `users` sees the company's requests (null: the company or its requests module
   * is not theirs), a few queries per BATCH users whatever their number: the company visible to them
   * (staff who are not auditors: every company; auditors: those of their projects; clients: their
   * memberships not revoked), then the requests module (the company's value; for clients their own,
   * else their teams'), then the scope (all: staff who are not auditors and client company admins).
   */
  private async learnScopes(companyId: string, users: RequestRecipient[]): Promise<void> {
    const missing = [...new Map(users.map((u) => [u.id, u])).values()].filter(
      (u) => !this.scopes.has(`${u.id}\u0000${companyId}`),
    );
    if (missing.length === 0) return;
    const company = await this.companyOf(companyId);
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const roles = new Map<string, 'admin' | 'member'>();
      const auditing = new Set<string>();
      const own = new Map<string, boolean | null>();
      const teams = new Map<string, (boolean | null)[]>();
      const clientIds = batch.filter((u) => !u.isTevora).map((u) => u.id);
      const auditorIds = batch.filter((u) => u.isTevora && u.isAuditor).map((u) => u.id);
      if (company && company.modulesAccess.requests) {
        if (clientIds.length > 0) {
          const memberships = await this.db
            .selectFrom('company_memberships')
            .select(['user_id', 'role'])
            .where('company_id', '=', companyId)
            .where('user_id', 'in', clientIds)
            .where('access_revoked_at', 'is', null)
            .execute();
          for (const row of memberships) roles.set(row.user_id, row.role);
        }
        const memberIds = [...roles.keys()];
        if (memberIds.length > 0) {
          const ownRows = await this.db
            .selectFrom('user_modules_access')
            .select(['user_id', 'enabled'])
            .where('company_id', '=', companyId)
            .where('module', '=', 'requests')
            .where('user_id', 'in', memberIds)
            .execute();
          for (const row of ownRows) own.set(row.user_id, toNullableBool(row.enabled));
          const teamRows = await this.db
            .selectFrom('team_members')
            .innerJoin('teams', 'teams.id', 'team_members.team_id')
            .leftJoin('team_modules_access', (join) =>
              join
                .onRef('team_modules_access.team_id', '=', 'teams.id')
                .on('team_modules_access.module', '=', 'requests'),
            )
            .select(['team_members.user_id', 'team_modules_access.enabled'])
            .where('teams.company_id', '=', companyId)
            .where('team_members.user_id', 'in', memberIds)
            .execute();
          for (const row of teamRows)
            teams.set(row.user_id, [...(teams.get(row.user_id) ?? []), toNullableBool(row.enabled)]);
        }
        if (auditorIds.length > 0) {
          const projectRoles = await this.db
            .selectFrom('project_members')
            .innerJoin('projects', 'projects.id', 'project_members.project_id')
            .select('project_members.user_id')
            .distinct()
            .where('projects.company_id', '=', companyId)
            .where('project_members.user_id', 'in', auditorIds)
            .execute();
          for (const row of projectRoles) auditing.add(row.user_id);
        }
      }
      for (const user of batch) {
        let scope: RequestScope | null = null;
        if (company && company.modulesAccess.requests) {
          if (user.isTevora) {
            if (!user.isAuditor || auditing.has(user.id))
              scope = { callerId: user.id, all: !user.isAuditor, auditor: user.isAuditor };
          } else {
            const role = roles.get(user.id);
            const modules = effectiveModuleAccess(
              company.modulesAccess,
              { requests: own.get(user.id) ?? null },
              (teams.get(user.id) ?? []).map((enabled) => ({ requests: enabled })),
            );
            if (role && modules.requests) scope = { callerId: user.id, all: role === 'admin', auditor: false };
          }
        }
        this.scopes.set(`${user.id}\u0000${companyId}`, scope);
      }
    }
  }

  /** How the user sees the company's requests, or null when the company or its requests module is not theirs. */
  private async scopeOf(user: RequestRecipient, companyId: string): Promise<RequestScope | null> {
    const key = `${user.id}\u0000${companyId}`;
    if (!this.scopes.has(key)) await this.learnScopes(companyId, [user]);
    return this.scopes.get(key) ?? null;
  }

  /** Whether the user sees the request now. */
  async sees(user: RequestRecipient, request: { id: string; companyId: string }): Promise<boolean> {
    const known = this.visible.get(`${user.id}\u0000${request.id}`);
    if (known !== undefined) return known;
    return (await this.visibleIds(user, request.companyId, [request.id])).has(request.id);
  }

  /** The ids among `ids` (requests of one company) the user sees now; `sees` then answers for them without asking again. */
  async visibleIds(user: RequestRecipient, companyId: string, ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    const scope = await this.scopeOf(user, companyId);
    const seen = new Set<string>();
    if (scope?.all) for (const id of unique) seen.add(id);
    else if (scope) {
      for (let i = 0; i < unique.length; i += BATCH) {
        const rows = await this.db
          .selectFrom('requests')
          .select('id')
          .where('id', 'in', unique.slice(i, i + BATCH))
          .where('company_id', '=', companyId)
          .where((eb) => requestVisible(eb, scope))
          .execute();
        for (const row of rows) seen.add(row.id);
      }
    }
    for (const id of unique) this.visible.set(`${user.id}\u0000${id}`, seen.has(id));
    return seen;
  }

  /**
   * Asks at once who of the notices' recipients sees which of their requests (scopes per company for
   * all of them together, then the scoped users' requests in batches), so that one notice or many (an
   * import, a bulk change, a sweep) cost a few queries, not several per person and request.
   */
  async learn(notices: RequestNotice[]): Promise<void> {
    const wanted = new Map<string, Map<string, Set<string>>>();
    for (const notice of notices) {
      const byUser = wanted.get(notice.request.companyId) ?? new Map<string, Set<string>>();
      wanted.set(notice.request.companyId, byUser);
      for (const userId of notice.userIds)
        byUser.set(userId, (byUser.get(userId) ?? new Set<string>()).add(notice.request.id));
    }
    const users = await this.usersOf([...new Set(notices.flatMap((n) => n.userIds))]);
    for (const [companyId, byUser] of wanted) {
      const active = [...byUser.keys()].flatMap((id) => {
        const user = users.get(id);
        return user && user.status === 'active' ? [user] : [];
      });
      await this.learnScopes(companyId, active);
      for (const user of active) {
        const unknown = [...byUser.get(user.id)!].filter((id) => !this.visible.has(`${user.id}\u0000${id}`));
        if (unknown.length > 0) await this.visibleIds(user, companyId, unknown);
      }
    }
  }

  /** The recipients of `userIds` who may hear about the request: active, not the actor, staff when `staffOnly`, seeing it. */
  async recipients(
    request: { id: string; companyId: string },
    userIds: string[],
    options: { actorId?: string | null; staffOnly?: boolean } = {},
  ): Promise<RequestRecipient[]> {
    const ids = [...new Set(userIds)].filter((id) => id !== options.actorId);
    const users = await this.usersOf(ids);
    const out: RequestRecipient[] = [];
    for (const id of ids) {
      const user = users.get(id);
      if (!user || user.status !== 'active') continue;
      if (options.staffOnly && !user.isTevora) continue;
      if (await this.sees(user, request)) out.push(user);
    }
    return out;
  }
}
