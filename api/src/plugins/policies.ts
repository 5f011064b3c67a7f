import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { ModuleName } from '@portal/shared/core/modules';
import { findVisibleCompany, type CompanyRecord } from '../db/companies';
import { moduleAccessFor } from '../db/module-access';
import { HttpError } from '../lib/http-error';
import { getAuth } from './auth';

/** Who may call a route. Company policies take the company id from `params.id`. */
export type Policy = 'public' | 'signedIn' | 'staff' | 'staffAdmin' | { company: 'member'; module?: ModuleName };

/** A registered route under /api/v1 or /auth and the policy it declared. */
export interface RoutePolicy {
  method: string;
  url: string;
  policy: Policy;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
  }
  interface FastifyInstance {
    /** Every route that must declare a policy, as registered: the authorization test walks it. */
    routePolicies: RoutePolicy[];
  }
}

/** Paths whose routes must each declare a policy. */
export function needsPolicy(url: string): boolean {
  return url === '/api/v1' || url.startsWith('/api/v1/') || url === '/auth' || url.startsWith('/auth/');
}

const companies = new WeakMap<FastifyRequest, CompanyRecord>();

/** The company a company policy resolved for this request. */
export function policyCompany(request: FastifyRequest): CompanyRecord {
  const company = companies.get(request);
  if (!company) throw new Error('policyCompany called on a route without a company policy');
  return company;
}

async function enforce(request: FastifyRequest, policy: Policy): Promise<void> {
  if (policy === 'public') return;
  const auth = await getAuth(request);
  if (!auth) throw new HttpError(401, 'unauthorized');
  const { user } = auth;
  if (policy === 'signedIn') return;
  if (policy === 'staff') {
    if (!user.isTevora) throw new HttpError(403, 'forbidden');
    return;
  }
  if (policy === 'staffAdmin') {
    if (!user.isTevora || !user.isAdmin) throw new HttpError(403, 'forbidden');
    return;
  }
  const companyId = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof companyId !== 'string' || companyId === '') throw new Error('a company policy needs a route with :id');
  // Not found both when it does not exist and when it is not the user's: existence is not revealed.
  const company = await findVisibleCompany(request.server.db, user, companyId);
  if (!company) throw new HttpError(404, 'company_not_found');
  if (policy.module) {
    const access = await moduleAccessFor(request.server.db, user.id, company.id);
    if (!access[policy.module]) throw new HttpError(403, 'module_access_denied');
  }
  companies.set(request, company);
}

export default fp(
  async function policies(app: FastifyInstance) {
    app.decorate('routePolicies', [] as RoutePolicy[]);
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!needsPolicy(route.url)) return;
      const policy = route.config?.policy;
      if (policy === undefined) {
        throw new Error(`Route ${route.method} ${route.url} declares no policy: add config: { policy }`);
      }
      for (const method of [route.method].flat()) app.routePolicies.push({ method, url: route.url, policy });
    });
    // Before validation: an anonymous or foreign caller learns nothing about a route's input rules.
    app.addHook('preValidation', async (request) => {
      const policy = request.routeOptions.config?.policy;
      if (policy !== undefined) await enforce(request, policy);
    });
  },
  { name: 'policies', dependencies: ['auth'] },
);
