/**
 * The demo data (the README's demo users, their companies, practices, projects, audit entries and
 * notifications) and seedIfEmpty, which writes it to an empty database. Over 400 lines because most of
 * it is that data, kept as literal tables to read and edit in one place; the code that writes it is
 * about 220 lines (the projects', files', requests', interviews' and trackers' parts are seed-*.ts).
 */
import { randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import type { Insertable, Kysely } from 'kysely';
import { emptyModuleAccess, type CompanyRole, type ModuleAccess, type ModuleName } from '@portal/shared/core/modules';
import type { ProjectStatus, ProjectType } from '@portal/shared/core/projects';
import { insertAuditRecord } from './audit-log';
import { addCompanyMember, insertCompany } from './companies';
import { seedFeatureFlags } from './feature-flags';
import { setUserModuleAccess } from './module-access';
import { createNotification, markNotificationRead } from './notifications';
import { savePasswordPolicy } from './password-policies';
import { insertPortalMessage } from './portal-messages';
import { insertPractice, setStaffPractices } from './practices';
import type { CatalogueName } from './seed-catalogue';
import { dayOf, insertInBatches, insertProjectWork, planProjectWork, type ProjectWorkPlan } from './seed-projects';
import { seedProjectFiles, type SeededProject } from './seed-files';
import { seedInterviews } from './seed-interviews';
import { seedRequests } from './seed-requests';
import { markRequestRemindersSent } from '../modules/requests/reminder-targets';
import { seedTaskTrackers } from './seed-task-trackers';
import type { BlobStorage } from '../lib/storage';
import type { Database, ProjectMembersTable, ProjectRoleName } from './schema';
import { addTeamMember, addTeamObject, insertTeam, setTeamModulesAccess } from './teams';
import { countUsers, insertUser, type NewUser } from './users';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The demo data (the README's demo users): outside checks sign in with it, so emails and password are fixed. */
export const DEMO_PASSWORD = 'Demo-Passw0rd!';

type DemoUser = Omit<NewUser, 'passwordHash'> & {
  key: string;
  /** Invited and not signed in yet: no password (the demo password otherwise). */
  invited?: boolean;
  /** Hours since the last sign-in, for the users lists; never signed in when absent. */
  lastSignInHoursAgo?: number;
};

const DEMO_USERS: DemoUser[] = [
  {
    key: 'admin',
    email: 'admin@demo.test',
    firstName: 'Alice',
    lastName: 'Morgan',
    title: 'Portal Administrator',
    isTevora: true,
    isAdmin: true,
  },
  {
    key: 'consultant',
    email: 'consultant@demo.test',
    firstName: 'Daniel',
    lastName: 'Reyes',
    title: 'Lead Consultant',
    isTevora: true,
  },
  {
    key: 'auditor',
    email: 'auditor@demo.test',
    firstName: 'Priya',
    lastName: 'Shah',
    title: 'Senior Auditor',
    isTevora: true,
    isAuditor: true,
  },
  { key: 'lead', email: 'lead@acme.test', firstName: 'Laura', lastName: 'Chen', title: 'Director of Compliance' },
  { key: 'member', email: 'member@acme.test', firstName: 'Marcus', lastName: 'Bell', title: 'IT Analyst' },
  { key: 'client', email: 'client@globex.test', firstName: 'Gwen', lastName: 'Ortiz', title: 'Security Manager' },
  { key: 'both', email: 'both@acme.test', firstName: 'Ben', lastName: 'Carter', title: 'Risk Officer' },
];

/** More people, so every settings tab has something to show; nobody outside relies on these. */
const MORE_USERS: DemoUser[] = [
  {
    key: 'nina',
    email: 'nina.patel@demo.test',
    firstName: 'Nina',
    lastName: 'Patel',
    title: 'Senior Consultant',
    isTevora: true,
    lastSignInHoursAgo: 20,
  },
  {
    key: 'omar',
    email: 'omar.haddad@demo.test',
    firstName: 'Omar',
    lastName: 'Haddad',
    title: 'Security Consultant',
    isTevora: true,
    lastSignInHoursAgo: 74,
  },
  {
    key: 'sarah',
    email: 'sarah.kim@acme.test',
    firstName: 'Sarah',
    lastName: 'Kim',
    title: 'Chief Information Security Officer',
    lastSignInHoursAgo: 3,
  },
  {
    key: 'james',
    email: 'james.patel@acme.test',
    firstName: 'James',
    lastName: 'Patel',
    title: 'Security Engineer',
    lastSignInHoursAgo: 27,
  },
  {
    key: 'olivia',
    email: 'olivia.nguyen@acme.test',
    firstName: 'Olivia',
    lastName: 'Nguyen',
    title: 'Internal Auditor',
    lastSignInHoursAgo: 50,
  },
  {
    key: 'ethan',
    email: 'ethan.brooks@acme.test',
    firstName: 'Ethan',
    lastName: 'Brooks',
    title: 'DevOps Lead',
    lastSignInHoursAgo: 140,
  },
  {
    key: 'mia',
    email: 'mia.rossi@acme.test',
    firstName: 'Mia',
    lastName: 'Rossi',
    title: 'HR Manager',
    status: 'suspended',
    lastSignInHoursAgo: 900,
  },
  {
    key: 'noah',
    email: 'noah.fischer@acme.test',
    firstName: 'Noah',
    lastName: 'Fischer',
    title: 'Privacy Counsel',
    invited: true,
  },
  {
    key: 'chloe',
    email: 'chloe.martin@acme.test',
    firstName: 'Chloe',
    lastName: 'Martin',
    title: 'IT Support Specialist',
    lastSignInHoursAgo: 2000,
  },
  {
    key: 'hannah',
    email: 'hannah.schmidt@globex.test',
    firstName: 'Hannah',
    lastName: 'Schmidt',
    title: 'VP of Engineering',
    lastSignInHoursAgo: 9,
  },
  {
    key: 'lucas',
    email: 'lucas.silva@globex.test',
    firstName: 'Lucas',
    lastName: 'Silva',
    title: 'Compliance Analyst',
    lastSignInHoursAgo: 31,
  },
  {
    key: 'zoe',
    email: 'zoe.anderson@globex.test',
    firstName: 'Zoe',
    lastName: 'Anderson',
    title: 'Network Engineer',
    lastSignInHoursAgo: 200,
  },
  {
    key: 'ryan',
    email: 'ryan.oconnor@globex.test',
    firstName: 'Ryan',
    lastName: "O'Connor",
    title: 'Data Protection Officer',
    invited: true,
  },
  {
    key: 'peter',
    email: 'peter.gibbons@initech.test',
    firstName: 'Peter',
    lastName: 'Gibbons',
    title: 'IT Director',
    lastSignInHoursAgo: 400,
  },
  {
    key: 'samir',
    email: 'samir.nagheenanajar@initech.test',
    firstName: 'Samir',
    lastName: 'Nagheenanajar',
    title: 'Software Engineer',
    invited: true,
  },
  {
    key: 'alice',
    email: 'alice.abernathy@umbrella.test',
    firstName: 'Alice',
    lastName: 'Abernathy',
    title: 'Chief Medical Information Officer',
    lastSignInHoursAgo: 60,
  },
];

interface DemoTeam {
  name: string;
  members: string[];
  /** The team's own values (others inherit). */
  modules?: Partial<ModuleAccess>;
  /** Titles of the company's projects the team has access to. */
  projects?: string[];
}

interface DemoCompany {
  name: string;
  modulesAccess: Record<ModuleName, boolean>;
  members: [userKey: string, role: CompanyRole][];
  /** Members whose access was revoked: still listed, no longer see the company. */
  revoked?: string[];
  teams: DemoTeam[];
  userModules: [userKey: string, module: ModuleName, enabled: boolean][];
  projects: DemoProject[];
  passwordPolicy?: { minimumLength: number; rotationInDays: number };
}

interface DemoProject {
  title: string;
  status: ProjectStatus;
  roles: [userKey: string, role: ProjectRoleName][];
  type: ProjectType;
  practice?: 'SOC 2 Readiness' | 'PCI DSS Assessment';
  description: string;
  /** Days from the seed date (negative: in the past). */
  start: number;
  due: number;
  /** Staff who created it; the Lead Consultant when absent. */
  createdBy?: string;
  /** Its tasks: top-level count, from which catalogue, and the share of them with subtasks. */
  work?: { catalogue: CatalogueName; tasks: number; subtaskShare: number };
}

const ALL_ON: Record<ModuleName, boolean> = {
  risks: true,
  projects: true,
  requests: true,
  reports: true,
  assets: true,
};

const DEMO_COMPANIES: DemoCompany[] = [
  {
    name: 'Acme Corp',
    modulesAccess: ALL_ON,
    members: [
      ['lead', 'admin'],
      ['member', 'member'],
      ['both', 'member'],
      ['sarah', 'admin'],
      ['james', 'member'],
      ['olivia', 'member'],
      ['ethan', 'member'],
      ['mia', 'member'],
      ['noah', 'member'],
      ['chloe', 'member'],
    ],
    revoked: ['chloe'],
    // Team values that grant only what the company already grants: the demo users' access stays as the README says.
    teams: [
      {
        name: 'Compliance Team',
        members: ['lead', 'member', 'both'],
        modules: { risks: true, projects: true },
        projects: ['Acme SOC 2 Type II 2026', 'Acme ISO 27001 Gap Analysis'],
      },
      {
        name: 'Security Engineering',
        members: ['james', 'ethan'],
        modules: { reports: false, assets: true },
        projects: ['Acme PCI DSS Assessment'],
      },
      {
        name: 'Internal Audit',
        members: ['olivia', 'sarah'],
        modules: { reports: true, assets: false },
        projects: ['Acme ISO 27001 Gap Analysis'],
      },
    ],
    userModules: [
      ['member', 'reports', false],
      ['noah', 'risks', false],
    ],
    passwordPolicy: { minimumLength: 14, rotationInDays: 0 },
    // Two in every status. The first three have fixed titles and roles; canceled ones have no tasks.
    projects: [
      {
        title: 'Acme SOC 2 Type II 2026',
        status: 'active',
        roles: [
          ['consultant', 'Lead Consultant'],
          ['lead', 'Client Lead'],
        ],
        type: 'Audit',
        practice: 'SOC 2 Readiness',
        description:
          "SOC 2 Type II examination of the Acme platform against the Security criteria (CC1 to CC9) over a twelve-month period: evidence requests, walkthroughs, sample testing and the auditor's report.",
        start: -75,
        due: 105,
        work: { catalogue: 'soc2', tasks: 250, subtaskShare: 0.45 },
      },
      {
        title: 'Acme PCI DSS Assessment',
        status: 'pending',
        roles: [
          ['consultant', 'Lead Consultant'],
          ['member', 'Project Manager'],
          ['nina', 'Consultant'],
        ],
        type: 'Assessment',
        practice: 'PCI DSS Assessment',
        description:
          'PCI DSS v4.0 assessment of the e-commerce cardholder data environment, leading to the Report on Compliance and the Attestation of Compliance.',
        start: 10,
        due: 130,
        work: { catalogue: 'pci', tasks: 40, subtaskShare: 0.2 },
      },
      {
        title: 'Acme ISO 27001 Gap Analysis',
        status: 'completed',
        roles: [
          ['consultant', 'Lead Consultant'],
          ['lead', 'Client Lead'],
        ],
        type: 'Assessment',
        description:
          'Gap analysis of the information security management system against ISO/IEC 27001:2022 and its Annex A controls, with a prioritized roadmap to certification.',
        start: -240,
        due: -170,
        work: { catalogue: 'iso27001', tasks: 30, subtaskShare: 0.2 },
      },
      {
        title: 'Acme SOC 2 Type I 2025',
        status: 'completed',
        roles: [
          ['consultant', 'Lead Consultant'],
          ['sarah', 'Client Lead'],
          ['omar', 'Consultant'],
        ],
        type: 'Audit',
        practice: 'SOC 2 Readiness',
        description:
          "SOC 2 Type I examination of the design of the platform's controls at a point in time: the baseline for the Type II period.",
        start: -430,
        due: -330,
        work: { catalogue: 'soc2', tasks: 45, subtaskShare: 0.3 },
      },
      {
        title: 'Acme Cloud Penetration Test 2026',
        status: 'active',
        roles: [
          ['omar', 'Lead Consultant'],
          ['sarah', 'Client Lead'],
          ['ethan', 'Project Manager'],
        ],
        type: 'Penetration Test',
        description:
          'External network, web application and AWS configuration testing of the production platform, with a retest of remediated findings.',
        start: -20,
        due: 25,
        work: { catalogue: 'pentest', tasks: 22, subtaskShare: 0.3 },
      },
      {
        title: 'Acme HIPAA Security Rule Review',
        status: 'on_hold',
        roles: [
          ['nina', 'Lead Consultant'],
          ['olivia', 'Client Lead'],
        ],
        type: 'Assessment',
        description:
          'Review of the employee health plan systems against the HIPAA Security Rule. On hold while the benefits platform is replaced.',
        start: -120,
        due: -10,
        work: { catalogue: 'hipaa', tasks: 30, subtaskShare: 0.2 },
      },
      {
        title: 'Acme Vendor Risk Management Program',
        status: 'on_hold',
        roles: [
          ['consultant', 'Lead Consultant'],
          ['james', 'Client Lead'],
        ],
        type: 'Advisory',
        description:
          'Design of the third-party risk program: vendor tiers, questionnaires, contract clauses and the annual review cycle. Paused until the procurement tooling is chosen.',
        start: -60,
        due: 60,
        work: { catalogue: 'vendor', tasks: 14, subtaskShare: 0.15 },
      },
      {
        title: 'Acme Incident Response Tabletop',
        status: 'pending',
        roles: [['omar', 'Lead Consultant']],
        type: 'Advisory',
        description:
          'A half-day ransomware tabletop exercise with the executive and incident response teams, and its after-action report.',
        start: 21,
        due: 35,
      },
      {
        title: 'Acme PCI DSS Readiness 2025',
        status: 'canceled',
        roles: [['consultant', 'Lead Consultant']],
        type: 'Readiness',
        practice: 'PCI DSS Assessment',
        description: 'Readiness review ahead of the PCI DSS assessment. Canceled: folded into the full assessment.',
        start: -200,
        due: -120,
      },
      {
        title: 'Acme GDPR Data Mapping',
        status: 'canceled',
        roles: [
          ['nina', 'Lead Consultant'],
          ['olivia', 'Project Manager'],
        ],
        type: 'Advisory',
        description:
          'Records of processing and data flow mapping for the EU subsidiary. Canceled when the subsidiary was sold.',
        start: -90,
        due: -30,
      },
    ],
  },
  {
    name: 'Globex Inc',
    modulesAccess: { risks: true, projects: true, requests: false, reports: true, assets: true },
    members: [
      ['client', 'member'],
      ['both', 'member'],
      ['hannah', 'admin'],
      ['lucas', 'member'],
      ['zoe', 'member'],
      ['ryan', 'member'],
    ],
    teams: [
      {
        name: 'Security Team',
        members: ['client', 'both'],
        modules: { risks: true },
        projects: ['Globex HIPAA Risk Assessment'],
      },
      {
        name: 'Infrastructure',
        members: ['hannah', 'zoe'],
        modules: { assets: true, reports: false },
        projects: ['Globex Penetration Test 2026'],
      },
      { name: 'Privacy Office', members: ['lucas', 'ryan'], modules: { risks: false } },
    ],
    userModules: [['zoe', 'reports', true]],
    // Two in every status; the first two have fixed titles and roles.
    projects: [
      {
        title: 'Globex HIPAA Risk Assessment',
        status: 'active',
        // the demo users' two roles, and the Lead Consultant an active project needs
        roles: [
          ['auditor', 'Consultant'],
          ['client', 'Client Lead'],
          ['omar', 'Lead Consultant'],
        ],
        type: 'Assessment',
        description:
          'Enterprise risk analysis of the systems that create, receive, maintain or transmit ePHI (164.308(a)(1)), and the risk management plan that follows from it.',
        start: -45,
        due: 75,
        work: { catalogue: 'hipaa', tasks: 60, subtaskShare: 0.3 },
      },
      {
        title: 'Globex Penetration Test 2026',
        status: 'pending',
        roles: [['both', 'Project Manager']],
        type: 'Penetration Test',
        description: 'Annual external and web application penetration test of the Globex customer portal.',
        start: 30,
        due: 60,
        createdBy: 'admin',
        work: { catalogue: 'pentest', tasks: 15, subtaskShare: 0.1 },
      },
      {
        title: 'Globex PCI DSS Report on Compliance',
        status: 'active',
        roles: [
          ['nina', 'Lead Consultant'],
          ['hannah', 'Client Lead'],
          ['lucas', 'Project Manager'],
        ],
        type: 'Audit',
        practice: 'PCI DSS Assessment',
        description:
          'PCI DSS v4.0 on-site assessment of the payment processing environment by a QSA, ending in the Report on Compliance.',
        start: -30,
        due: 90,
        work: { catalogue: 'pci', tasks: 50, subtaskShare: 0.3 },
      },
      {
        title: 'Globex SOC 2 Readiness 2026',
        status: 'on_hold',
        roles: [
          ['omar', 'Lead Consultant'],
          ['lucas', 'Client Lead'],
        ],
        type: 'Readiness',
        practice: 'SOC 2 Readiness',
        description:
          'Readiness assessment against the SOC 2 Security criteria before the first Type I. On hold until the new data center move is complete.',
        start: -100,
        due: 20,
        work: { catalogue: 'soc2', tasks: 35, subtaskShare: 0.25 },
      },
      {
        title: 'Globex AWS Cloud Security Review',
        status: 'on_hold',
        roles: [
          ['nina', 'Lead Consultant'],
          ['zoe', 'Client Lead'],
        ],
        type: 'Advisory',
        description:
          "Configuration review of the AWS organization against the CIS AWS Foundations Benchmark. Paused at the client's request during a migration freeze.",
        start: -50,
        due: -5,
        work: { catalogue: 'cloud', tasks: 14, subtaskShare: 0.2 },
      },
      {
        title: 'Globex HIPAA Risk Assessment 2025',
        status: 'completed',
        roles: [
          ['omar', 'Lead Consultant'],
          ['hannah', 'Client Lead'],
        ],
        type: 'Assessment',
        description: "Last year's HIPAA Security Rule risk analysis; its findings feed this year's assessment.",
        start: -400,
        due: -320,
        work: { catalogue: 'hipaa', tasks: 40, subtaskShare: 0.2 },
      },
      {
        title: 'Globex Business Continuity Review',
        status: 'completed',
        roles: [
          ['nina', 'Lead Consultant'],
          ['zoe', 'Client Lead'],
        ],
        type: 'Advisory',
        description:
          'Business impact analysis, review of the continuity plan and observation of a disaster recovery test.',
        start: -200,
        due: -140,
        work: { catalogue: 'continuity', tasks: 13, subtaskShare: 0.2 },
      },
      {
        title: 'Globex Vendor Due Diligence',
        status: 'pending',
        roles: [['omar', 'Lead Consultant']],
        type: 'Advisory',
        description: 'Security due diligence of three shortlisted payroll providers before contract signature.',
        start: 14,
        due: 60,
      },
      {
        title: 'Globex Red Team Exercise',
        status: 'canceled',
        roles: [['omar', 'Lead Consultant']],
        type: 'Penetration Test',
        description: 'Objective-based red team exercise. Canceled: replaced by the 2026 penetration test.',
        start: -150,
        due: -100,
      },
      {
        title: 'Globex Privacy Impact Assessment',
        status: 'canceled',
        roles: [
          ['nina', 'Lead Consultant'],
          ['lucas', 'Project Manager'],
        ],
        type: 'Advisory',
        description:
          'Privacy impact assessment of the customer analytics program. Canceled when the program was shelved.',
        start: -80,
        due: -40,
      },
    ],
  },
];

/** Further clients, all sorted after Acme Corp and Globex Inc: the Clients list has pages and search to show. */
const MORE_COMPANIES: DemoCompany[] = [
  { name: 'Hooli', modulesAccess: ALL_ON, members: [], teams: [], userModules: [], projects: [] },
  {
    name: 'Initech LLC',
    modulesAccess: { ...ALL_ON, reports: false, assets: false },
    members: [
      ['peter', 'admin'],
      ['samir', 'member'],
    ],
    teams: [{ name: 'Platform', members: ['peter', 'samir'] }],
    userModules: [],
    projects: [
      {
        title: 'Initech SOC 2 Readiness',
        status: 'pending',
        roles: [
          ['nina', 'Lead Consultant'],
          ['peter', 'Client Lead'],
        ],
        type: 'Readiness',
        practice: 'SOC 2 Readiness',
        description: 'Readiness assessment against the SOC 2 Security criteria for the TPS reporting platform.',
        start: 7,
        due: 120,
      },
    ],
  },
  {
    name: 'Massive Dynamic',
    modulesAccess: { ...ALL_ON, risks: false },
    members: [],
    teams: [],
    userModules: [],
    projects: [],
  },
  { name: 'Soylent Foods', modulesAccess: ALL_ON, members: [], teams: [], userModules: [], projects: [] },
  {
    name: 'Tyrell Corporation',
    modulesAccess: { ...ALL_ON, requests: false },
    members: [],
    teams: [],
    userModules: [],
    projects: [],
  },
  {
    name: 'Umbrella Health',
    modulesAccess: { ...ALL_ON, risks: false, requests: false },
    members: [['alice', 'admin']],
    teams: [],
    userModules: [],
    projects: [],
    passwordPolicy: { minimumLength: 16, rotationInDays: 0 },
  },
  {
    name: 'Vandelay Industries',
    modulesAccess: { ...ALL_ON, assets: false },
    members: [],
    teams: [],
    userModules: [],
    projects: [],
  },
  { name: 'Wayne Enterprises', modulesAccess: ALL_ON, members: [], teams: [], userModules: [], projects: [] },
  {
    name: 'Wonka Confections',
    modulesAccess: { ...ALL_ON, reports: false },
    members: [],
    teams: [],
    userModules: [],
    projects: [],
  },
  { name: 'Zorin Industries', modulesAccess: ALL_ON, members: [], teams: [], userModules: [], projects: [] },
];

const DEMO_PRACTICES: { name: string; description: string; staff: string[] }[] = [
  {
    name: 'SOC 2 Readiness',
    description:
      'Readiness assessment against the AICPA Trust Services Criteria: scoping, control walkthroughs, evidence requests and a gap report.',
    staff: ['consultant', 'admin', 'omar'],
  },
  {
    name: 'PCI DSS Assessment',
    description:
      'Assessment of the cardholder data environment against PCI DSS v4.0, from scoping to the Report on Compliance.',
    staff: ['consultant', 'nina'],
  },
];

/** Earlier administrative changes, so the audit log has a history: [days ago, actor, action, company, target, before, after]. */
const DEMO_AUDIT: [
  daysAgo: number,
  actor: string,
  action: string,
  company: string | null,
  target: { type: string; label: string },
  before: unknown,
  after: unknown,
][] = [
  [
    45,
    'admin',
    'company.create',
    'Initech LLC',
    { type: 'company', label: 'Initech LLC' },
    null,
    { name: 'Initech LLC', modulesAccess: ALL_ON },
  ],
  [
    44,
    'admin',
    'company.modules.update',
    'Initech LLC',
    { type: 'company', label: 'Initech LLC' },
    { reports: true, assets: true },
    { reports: false, assets: false },
  ],
  [
    38,
    'admin',
    'company.create',
    'Umbrella Health',
    { type: 'company', label: 'Umbrella Health' },
    null,
    { name: 'Umbrella Health', modulesAccess: ALL_ON },
  ],
  [
    37,
    'consultant',
    'company.modules.update',
    'Umbrella Health',
    { type: 'company', label: 'Umbrella Health' },
    { risks: true, requests: true },
    { risks: false, requests: false },
  ],
  [
    30,
    'admin',
    'systemSetting.create',
    null,
    { type: 'systemSetting', label: 'help' },
    null,
    { key: 'help', status: 'active' },
  ],
  [
    21,
    'lead',
    'company.passwordPolicy.update',
    'Acme Corp',
    { type: 'company', label: 'Acme Corp' },
    { minimumLength: 12, rotationInDays: 0 },
    { minimumLength: 14, rotationInDays: 0 },
  ],
  [
    18,
    'lead',
    'team.create',
    'Acme Corp',
    { type: 'team', label: 'Security Engineering' },
    null,
    { name: 'Security Engineering' },
  ],
  [
    18,
    'lead',
    'team.member.add',
    'Acme Corp',
    { type: 'team', label: 'Security Engineering' },
    null,
    { user: 'james' },
  ],
  [
    12,
    'consultant',
    'team.modules.update',
    'Acme Corp',
    { type: 'team', label: 'Security Engineering' },
    { reports: null },
    { reports: false },
  ],
  [
    9,
    'admin',
    'featureFlag.update',
    null,
    { type: 'featureFlag', label: 'staff-preview' },
    { enabled: false },
    { enabled: true },
  ],
  [
    6,
    'admin',
    'company.update',
    'Globex Inc',
    { type: 'company', label: 'Globex Inc' },
    { name: 'Globex Incorporated' },
    { name: 'Globex Inc' },
  ],
  [2, 'sarah', 'team.member.add', 'Acme Corp', { type: 'team', label: 'Internal Audit' }, null, { user: 'sarah' }],
];

/**
 * A few bell notifications per demo user: [user, title, body, link, hours ago, read]. A link
 * `{ request: 'REQ-0003' }` points at that seeded Acme request (its texts are the api's for that event).
 */
const DEMO_NOTIFICATIONS: [
  userKey: string,
  title: string,
  body: string,
  link: string | { request: string } | null,
  hoursAgo: number,
  read: boolean,
][] = [
  ['admin', 'Welcome to the portal', 'Your staff administrator account is ready.', '/settings/personal', 72, true],
  ['admin', 'Acme SOC 2 Type II 2026 is active', 'The project moved to active.', '/v2/projects/', 5, false],
  ['admin', 'Globex Inc updated its team', 'Security Team has a new member.', '/settings/teams', 1, false],
  [
    'consultant',
    'Acme PCI DSS Assessment is pending',
    'Add the remaining roles to activate it.',
    '/v2/projects/',
    26,
    true,
  ],
  [
    'consultant',
    'REQ-0003 Submitted: Signed information security policy',
    'Submitted by Laura Chen',
    { request: 'REQ-0003' },
    3,
    false,
  ],
  ['auditor', 'You were added to Globex HIPAA Risk Assessment', 'Your role: Consultant.', '/v2/projects/', 30, false],
  [
    'lead',
    'New request REQ-0014: Data retention schedule',
    'Daniel Reyes asked for evidence',
    { request: 'REQ-0014' },
    2,
    false,
  ],
  ['lead', 'Acme ISO 27001 Gap Analysis is completed', 'The final report is available.', '/reports', 48, true],
  [
    'member',
    'You are Project Manager of Acme PCI DSS Assessment',
    'Daniel Reyes assigned the role.',
    '/v2/projects/',
    8,
    false,
  ],
  ['client', 'Welcome to the portal', 'You can now see the projects of Globex Inc.', '/', 20, false],
  ['both', 'You were added to Globex Inc', 'You now work in Acme Corp and Globex Inc.', '/', 12, false],
];

export interface SeedOptions {
  /** Tests only: a cheaper argon2 cost. Production uses the library's argon2id defaults. */
  hashOptions?: Omit<argon2.Options, 'raw'>;
  /** Where the demo files' bytes go (issue 6); without it the projects get their folders but no files. */
  storage?: BlobStorage;
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
  // argon2 is the slow part: one hash of the demo password serves every demo user.
  const hash = await hashPassword(DEMO_PASSWORD, options.hashOptions);
  await db.transaction().execute(async (trx) => {
    // Re-check inside the transaction: two instances starting together seed once.
    if ((await countUsers(trx)) > 0) return;
    const now = Date.now();
    const hoursAgo = (hours: number) => new Date(now - hours * HOUR).toISOString();
    const ids = new Map<string, string>();
    for (const { key, ...user } of DEMO_USERS) {
      ids.set(key, await insertUser(trx, { ...user, passwordHash: hash, firstLogin: false }));
    }
    for (const { key, invited, lastSignInHoursAgo, ...user } of MORE_USERS) {
      const id = await insertUser(trx, { ...user, passwordHash: invited ? null : hash, firstLogin: Boolean(invited) });
      ids.set(key, id);
      if (lastSignInHoursAgo !== undefined) {
        await trx
          .updateTable('users')
          .set({ last_sign_in_at: hoursAgo(lastSignInHoursAgo) })
          .where('id', '=', id)
          .execute();
      }
    }
    // Practices first: projects name theirs.
    const practiceIds = new Map<string, string>();
    const practicesOf = new Map<string, string[]>();
    for (const practice of DEMO_PRACTICES) {
      const practiceId = await insertPractice(trx, { name: practice.name, description: practice.description });
      practiceIds.set(practice.name, practiceId);
      for (const key of practice.staff) practicesOf.set(key, [...(practicesOf.get(key) ?? []), practiceId]);
    }
    for (const [key, ofUser] of practicesOf) await setStaffPractices(trx, ids.get(key)!, ofUser);
    await seedTaskTrackers(trx, practiceIds, ids.get('admin')!);
    const people = new Map([...DEMO_USERS, ...MORE_USERS].map((user) => [user.key, user]));
    const projectMembers: Insertable<ProjectMembersTable>[] = [];
    const workPlans: ProjectWorkPlan[] = [];
    const seededProjects: SeededProject[] = [];
    const companyIds = new Map<string, string>();
    /** By `company/team`, for the audit history. */
    const teamIds = new Map<string, string>();
    for (const company of [...DEMO_COMPANIES, ...MORE_COMPANIES]) {
      const companyId = await insertCompany(trx, { name: company.name, modulesAccess: company.modulesAccess });
      companyIds.set(company.name, companyId);
      for (const [key, role] of company.members) await addCompanyMember(trx, companyId, ids.get(key)!, role);
      for (const key of company.revoked ?? []) {
        await trx
          .updateTable('company_memberships')
          .set({ access_revoked_at: hoursAgo(24 * 8) })
          .where('company_id', '=', companyId)
          .where('user_id', '=', ids.get(key)!)
          .execute();
      }
      for (const [key, module, enabled] of company.userModules) {
        await setUserModuleAccess(trx, companyId, ids.get(key)!, module, enabled);
      }
      // Work goes to the company's active client members (not the revoked, suspended or invited).
      const clients = company.members
        .map(([key]) => people.get(key)!)
        .filter((user) => !company.revoked?.includes(user.key) && user.status !== 'suspended' && !user.invited)
        .map((user) => ids.get(user.key)!);
      const projectIds = new Map<string, string>();
      const projectRows = company.projects.map((project) => {
        const id = randomUUID();
        projectIds.set(project.title, id);
        const creator = project.createdBy ?? project.roles.find(([, role]) => role === 'Lead Consultant')?.[0];
        const startMs = now + project.start * DAY;
        const dueMs = now + project.due * DAY;
        const created = Math.min(now - 6 * DAY, startMs - 10 * DAY);
        const updated = Math.min(
          now - HOUR,
          Math.max(created, project.status === 'completed' ? dueMs + 2 * DAY : now - 3 * DAY),
        );
        for (const [key, role] of project.roles) projectMembers.push({ project_id: id, user_id: ids.get(key)!, role });
        const holder = (role: ProjectRoleName) => project.roles.find(([, r]) => r === role)?.[0];
        const staffKey = holder('Lead Consultant') ?? creator;
        const clientKey = holder('Client Lead');
        seededProjects.push({
          id,
          companyId,
          title: project.title,
          status: project.status,
          createdAtMs: created,
          staffId: staffKey ? ids.get(staffKey)! : null,
          clientId: clientKey ? ids.get(clientKey)! : null,
        });
        if (project.work) {
          workPlans.push({
            projectId: id,
            companyId,
            title: project.title,
            status: project.status,
            ...project.work,
            startMs,
            dueMs,
            createdBy: creator ? ids.get(creator)! : null,
            staff: project.roles.filter(([key]) => people.get(key)!.isTevora).map(([key]) => ids.get(key)!),
            clients,
          });
        }
        return {
          id,
          company_id: companyId,
          title: project.title,
          status: project.status,
          type: project.type,
          description: project.description,
          practice_id: project.practice ? practiceIds.get(project.practice)! : null,
          start_date: dayOf(startMs),
          due_date: dayOf(dueMs),
          created_by: creator ? ids.get(creator)! : null,
          created_at: new Date(created).toISOString(),
          updated_at: new Date(updated).toISOString(),
        };
      });
      if (projectRows.length) await trx.insertInto('projects').values(projectRows).execute();
      for (const team of company.teams) {
        const teamId = await insertTeam(trx, companyId, team.name);
        teamIds.set(`${company.name}/${team.name}`, teamId);
        for (const key of team.members) await addTeamMember(trx, teamId, ids.get(key)!);
        if (team.modules)
          await setTeamModulesAccess(trx, companyId, teamId, { ...emptyModuleAccess(), ...team.modules });
        for (const title of team.projects ?? []) await addTeamObject(trx, teamId, 'projects', projectIds.get(title)!);
      }
      if (company.passwordPolicy) await savePasswordPolicy(trx, companyId, company.passwordPolicy);
    }
    await insertInBatches(trx, 'project_members', projectMembers);
    await insertProjectWork(
      trx,
      workPlans.map((plan) => planProjectWork(plan, now)),
    );
    await seedProjectFiles(trx, seededProjects, options.storage, now);
    await seedInterviews(trx, seededProjects, now);
    const requests = await seedRequests(trx, {
      now,
      users: ids,
      companies: companyIds,
      teams: teamIds,
      projects: seededProjects,
      storage: options.storage,
    });
    // The demo's story already happened: today's reminders and digests count as sent, so a fresh portal
    // (and every test app) starts without a burst of bells and mail; the sweep sends from tomorrow on.
    const seedDay = new Date(now).toISOString().slice(0, 10);
    await markRequestRemindersSent(trx, seedDay);
    await insertInBatches(
      trx,
      'request_digests',
      [...ids.values()].map((userId) => ({ user_id: userId, day: seedDay, created_at: new Date(now).toISOString() })),
    );
    for (const [key, title, body, link, hours, read] of DEMO_NOTIFICATIONS) {
      const userId = ids.get(key)!;
      const request =
        link && typeof link === 'object'
          ? requests.find((r) => r.company === 'Acme Corp' && r.reference === link.request)!
          : null;
      const notification = await createNotification(trx, {
        userId,
        title,
        body,
        link: request ? `/requests/${request.id}` : (link as string | null),
        companyId: request?.companyId,
        createdAt: hoursAgo(hours),
      });
      if (read) await markNotificationRead(trx, userId, notification.id);
    }
    await seedFeatureFlags(trx);
    // No banner is shown by default: one inactive example shows admins the shape.
    await insertPortalMessage(trx, {
      key: 'banner',
      status: 'inactive',
      value:
        '<strong>Scheduled maintenance</strong> on Saturday from 22:00 to 23:00 UTC: the portal may be unavailable.',
    });
    const help = await insertPortalMessage(trx, {
      key: 'help',
      status: 'active',
      value:
        '<p><strong>Need help?</strong> Write to <a href="mailto:support@demo.test">support@demo.test</a> or call +1 (555) 010-2030, Monday to Friday, 8:00 to 18:00 Pacific time.</p>',
    });
    const emailOf = (key: string) => [...DEMO_USERS, ...MORE_USERS].find((u) => u.key === key)!.email;
    for (const [days, actor, action, company, target, before, rawAfter] of DEMO_AUDIT) {
      const companyId = company ? companyIds.get(company)! : null;
      const targetId =
        {
          company: companyId,
          team: teamIds.get(`${company}/${target.label}`) ?? null,
          systemSetting: help.id,
          featureFlag: target.label,
        }[target.type] ?? null;
      // A member added: the user by id and email, as the api records it.
      const memberKey = (rawAfter as { user?: string } | null)?.user;
      const after = memberKey ? { userId: ids.get(memberKey)!, email: emailOf(memberKey) } : rawAfter;
      await insertAuditRecord(trx, {
        actorId: ids.get(actor)!,
        actorEmail: emailOf(actor),
        action,
        targetType: target.type,
        targetId,
        targetLabel: target.label,
        companyId,
        before,
        after,
        createdAt: hoursAgo(days * 24),
      });
    }
  });
  return true;
}
