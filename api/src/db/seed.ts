import argon2 from 'argon2';
import type { Kysely } from 'kysely';
import type { CompanyRole, ModuleName } from '@portal/shared/core/modules';
import { addCompanyMember, insertCompany } from './companies';
import { seedFeatureFlags } from './feature-flags';
import { setUserModuleAccess } from './module-access';
import { createNotification, markNotificationRead } from './notifications';
import { insertPortalMessage } from './portal-messages';
import { addProjectMember, insertProject } from './projects';
import type { Database, ProjectRoleName } from './schema';
import { addTeamMember, insertTeam } from './teams';
import { countUsers, insertUser, type NewUser } from './users';

/** The demo data of DESIGN.md: outside checks sign in with it, so emails and password are fixed. */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

type DemoUser = Omit<NewUser, 'passwordHash'> & { key: string };

const DEMO_USERS: DemoUser[] = [
  { key: 'admin', email: 'admin@demo.test', firstName: 'Alice', lastName: 'Morgan', title: 'Portal Administrator', isTevora: true, isAdmin: true },
  { key: 'consultant', email: 'consultant@demo.test', firstName: 'Daniel', lastName: 'Reyes', title: 'Lead Consultant', isTevora: true },
  { key: 'auditor', email: 'auditor@demo.test', firstName: 'Priya', lastName: 'Shah', title: 'Senior Auditor', isTevora: true, isAuditor: true },
  { key: 'lead', email: 'lead@acme.test', firstName: 'Laura', lastName: 'Chen', title: 'Director of Compliance' },
  { key: 'member', email: 'member@acme.test', firstName: 'Marcus', lastName: 'Bell', title: 'IT Analyst' },
  { key: 'client', email: 'client@globex.test', firstName: 'Gwen', lastName: 'Ortiz', title: 'Security Manager' },
  { key: 'both', email: 'both@acme.test', firstName: 'Ben', lastName: 'Carter', title: 'Risk Officer' },
];

interface DemoCompany {
  name: string;
  modulesAccess: Record<ModuleName, boolean>;
  members: [userKey: string, role: CompanyRole][];
  team: { name: string; members: string[] };
  userModules: [userKey: string, module: ModuleName, enabled: boolean][];
  projects: { title: string; status: string; roles: [userKey: string, role: ProjectRoleName][] }[];
}

const DEMO_COMPANIES: DemoCompany[] = [
  {
    name: 'Acme Corp',
    modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
    members: [['lead', 'admin'], ['member', 'member'], ['both', 'member']],
    team: { name: 'Compliance Team', members: ['lead', 'member', 'both'] },
    userModules: [['member', 'reports', false]],
    projects: [
      { title: 'Acme SOC 2 Type II 2026', status: 'active', roles: [['consultant', 'Lead Consultant'], ['lead', 'Client Lead']] },
      { title: 'Acme PCI DSS Assessment', status: 'pending', roles: [['consultant', 'Lead Consultant'], ['member', 'Project Manager']] },
      { title: 'Acme ISO 27001 Gap Analysis', status: 'completed', roles: [['consultant', 'Lead Consultant'], ['lead', 'Client Lead']] },
    ],
  },
  {
    name: 'Globex Inc',
    modulesAccess: { risks: true, projects: true, requests: false, reports: true, assets: true },
    members: [['client', 'member'], ['both', 'member']],
    team: { name: 'Security Team', members: ['client', 'both'] },
    userModules: [],
    projects: [
      { title: 'Globex HIPAA Risk Assessment', status: 'active', roles: [['auditor', 'Consultant'], ['client', 'Client Lead']] },
      { title: 'Globex Penetration Test 2026', status: 'pending', roles: [['both', 'Project Manager']] },
    ],
  },
];

/** A few bell notifications per demo user: [user, title, body, link, hours ago, read]. */
const DEMO_NOTIFICATIONS: [userKey: string, title: string, body: string, link: string | null, hoursAgo: number, read: boolean][] = [
  ['admin', 'Welcome to the portal', 'Your staff administrator account is ready.', '/settings/personal', 72, true],
  ['admin', 'Acme SOC 2 Type II 2026 is active', 'The project moved to active.', '/v2/projects/', 5, false],
  ['admin', 'Globex Inc updated its team', 'Security Team has a new member.', '/settings/teams', 1, false],
  ['consultant', 'Acme PCI DSS Assessment is pending', 'Add the remaining roles to activate it.', '/v2/projects/', 26, true],
  ['consultant', 'New request from Acme Corp', 'Laura Chen sent a request for evidence.', '/requests', 3, false],
  ['auditor', 'You were added to Globex HIPAA Risk Assessment', 'Your role: Consultant.', '/v2/projects/', 30, false],
  ['lead', 'A request needs your review', 'Evidence for control AC-2 was uploaded.', '/requests', 2, false],
  ['lead', 'Acme ISO 27001 Gap Analysis is completed', 'The final report is available.', '/reports', 48, true],
  ['member', 'You are Project Manager of Acme PCI DSS Assessment', 'Daniel Reyes assigned the role.', '/v2/projects/', 8, false],
  ['client', 'Welcome to the portal', 'You can now see the projects of Globex Inc.', '/', 20, false],
  ['both', 'You were added to Globex Inc', 'You now work in Acme Corp and Globex Inc.', '/', 12, false],
];

export interface SeedOptions {
  /** Tests only: a cheaper argon2 cost. Production uses the library's argon2id defaults. */
  hashOptions?: Omit<argon2.Options, 'raw'>;
}

export async function hashPassword(password: string, options?: SeedOptions['hashOptions']): Promise<string> {
  return argon2.hash(password, { ...options, type: argon2.argon2id });
}

/**
 * Seeds the demo data on an empty database (no users) and does nothing otherwise.
 * Returns whether it seeded. Later issues extend it with projects, requests and files.
 */
export async function seedIfEmpty(db: Kysely<Database>, options: SeedOptions = {}): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  const hashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD, options.hashOptions)));
  await db.transaction().execute(async (trx) => {
    // Re-check inside the transaction: two instances starting together seed once.
    if ((await countUsers(trx)) > 0) return;
    const ids = new Map<string, string>();
    for (const [i, { key, ...user }] of DEMO_USERS.entries()) {
      ids.set(key, await insertUser(trx, { ...user, passwordHash: hashes[i], firstLogin: false }));
    }
    for (const company of DEMO_COMPANIES) {
      const companyId = await insertCompany(trx, { name: company.name, modulesAccess: company.modulesAccess });
      for (const [key, role] of company.members) await addCompanyMember(trx, companyId, ids.get(key)!, role);
      const teamId = await insertTeam(trx, companyId, company.team.name);
      for (const key of company.team.members) await addTeamMember(trx, teamId, ids.get(key)!);
      for (const [key, module, enabled] of company.userModules) {
        await setUserModuleAccess(trx, companyId, ids.get(key)!, module, enabled);
      }
      for (const project of company.projects) {
        const projectId = await insertProject(trx, { companyId, title: project.title, status: project.status });
        for (const [key, role] of project.roles) await addProjectMember(trx, projectId, ids.get(key)!, role);
      }
    }
    const now = Date.now();
    for (const [key, title, body, link, hoursAgo, read] of DEMO_NOTIFICATIONS) {
      const userId = ids.get(key)!;
      const createdAt = new Date(now - hoursAgo * 3_600_000).toISOString();
      const notification = await createNotification(trx, { userId, title, body, link, createdAt });
      if (read) await markNotificationRead(trx, userId, notification.id);
    }
    await seedFeatureFlags(trx);
    // No banner is shown by default: one inactive example shows admins the shape.
    await insertPortalMessage(trx, {
      key: 'banner',
      status: 'inactive',
      value: '<strong>Scheduled maintenance</strong> on Saturday from 22:00 to 23:00 UTC: the portal may be unavailable.',
    });
  });
  return true;
}
