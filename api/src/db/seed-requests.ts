/**
 * The demo evidence requests (issue 8): Acme Corp gets fourteen requests in every status, priority and
 * kind of due date (overdue, due in the next days, later, none), on its projects (a few on a task or a
 * control of the SOC 2 project), with comments, evidence files and a history that replays to the
 * status; Globex Inc, whose requests module is off, gets three so the rules have rows to refuse.
 * Written straight to the tables: the seed sends no notification or mail. Each request's story is a
 * list of steps applied through REQUEST_TRANSITIONS, so a status never disagrees with its history.
 * Without a storage (tests of the seed alone) the evidence files and their history lines are left out:
 * a row never names bytes that are not there. Over 400 lines because most of it is the requests' stories
 * as literal data (ACME_REQUESTS, GLOBEX_REQUESTS); the code that writes them is about 190 lines.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import {
  canApplyAction,
  evidenceEditable,
  formatRequestReference,
  REQUEST_TRANSITIONS,
  type RequestAction,
  type RequestEvent,
  type RequestPriority,
  type RequestStatus,
} from '@portal/shared/core/requests';
import { checkFileContent } from '../lib/file-types';
import type { BlobStorage } from '../lib/storage';
import { tinyPdf, type SeededProject } from './seed-files';
import { dayOf, insertInBatches } from './seed-projects';
import type {
  Database,
  RequestAssigneesTable,
  RequestCommentsTable,
  RequestEventsTable,
  RequestFilesTable,
  RequestsTable,
  RequestTeamsTable,
} from './schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What happened to a request after it was created, `hoursAgo` counted from the seed. */
type Step =
  | { hoursAgo: number; by: string; file: { name: string; text: string } }
  | { hoursAgo: number; by: string; action: RequestAction; reason?: string }
  | { hoursAgo: number; by: string; comment: string; internal?: boolean };

interface DemoRequest {
  title: string;
  description: string | null;
  internalNote?: string;
  priority: RequestPriority;
  /** Days from the seed's day (negative: in the past); null: no due date. */
  due: number | null;
  project: string | null;
  /** The project's first top-level task of this criterion (e.g. CC6.3 -> CC6.3-01). */
  task?: string;
  /** The project's control of this name. */
  control?: string;
  requester: string;
  assignees: string[];
  teams: string[];
  createdHoursAgo: number;
  steps: Step[];
}

const SOC2 = 'Acme SOC 2 Type II 2026';
const PCI = 'Acme PCI DSS Assessment';
const PENTEST = 'Acme Cloud Penetration Test 2026';
const HIPAA = 'Globex HIPAA Risk Assessment';

/** Acme's requests, REQ-0001 first: the numbers follow the creation times. */
const ACME_REQUESTS: DemoRequest[] = [
  {
    title: 'Quarterly user access review',
    description:
      'The Q1 access reviews of the production systems: who reviewed, when, and the access removed as a result.',
    internalNote: 'Sample three of the twelve systems in scope; last year the Okta review was missing.',
    priority: 'high',
    due: -5,
    project: SOC2,
    task: 'CC6.3',
    requester: 'consultant',
    assignees: ['lead'],
    teams: [],
    createdHoursAgo: 14 * 24,
    steps: [
      {
        hoursAgo: 13 * 24,
        by: 'consultant',
        comment: "Please include the AWS, GitHub and Okta reviews, with each reviewer's sign-off.",
      },
      {
        hoursAgo: 12 * 24,
        by: 'lead',
        comment: 'The AWS and GitHub reviews are ready; we are still collecting the Okta export.',
      },
    ],
  },
  {
    title: 'Firewall rule review',
    description: 'An export of the perimeter firewall rules and the record of their last semiannual review.',
    priority: 'medium',
    due: 2,
    project: PCI,
    requester: 'consultant',
    assignees: ['member'],
    teams: [],
    createdHoursAgo: 13 * 24,
    steps: [
      {
        hoursAgo: 30,
        by: 'member',
        file: {
          name: 'firewall-rules-export.txt',
          text: 'rule,source,destination,port,action\n10,any,dmz-web,443,allow\n20,dmz-web,app,8443,allow\n999,any,any,any,deny\n',
        },
      },
      { hoursAgo: 29, by: 'member', comment: 'First export attached; the DMZ rules follow tomorrow.' },
    ],
  },
  {
    title: 'Signed information security policy',
    description: 'The current information security policy, approved and signed by management, with its approval date.',
    priority: 'high',
    due: 1,
    project: SOC2,
    control: 'CC5.3',
    requester: 'consultant',
    assignees: ['lead'],
    teams: [],
    createdHoursAgo: 12 * 24 + 6,
    steps: [
      {
        hoursAgo: 4,
        by: 'lead',
        file: {
          name: 'Information Security Policy signed.pdf',
          text: 'Information Security Policy, approved by the CEO',
        },
      },
      { hoursAgo: 3, by: 'lead', action: 'submit' },
    ],
  },
  {
    title: 'Employee offboarding records',
    description: 'Every leaver of the review period with their last day and the date each account was disabled.',
    priority: 'medium',
    due: 3,
    project: SOC2,
    requester: 'consultant',
    assignees: ['both'],
    teams: ['Compliance Team'],
    createdHoursAgo: 12 * 24,
    steps: [
      {
        hoursAgo: 8 * 24,
        by: 'both',
        file: {
          name: 'offboarding-jan-feb.csv',
          text: 'employee,last day,accounts disabled\nE1042,2026-01-16,2026-01-16\nE1077,2026-02-27,2026-02-28\n',
        },
      },
      { hoursAgo: 8 * 24 - 1, by: 'both', action: 'submit' },
      {
        hoursAgo: 6 * 24 + 2,
        by: 'consultant',
        comment: 'The HR leavers report shows 14 leavers for the period; this list has 9.',
        internal: true,
      },
      {
        hoursAgo: 6 * 24,
        by: 'consultant',
        action: 'return',
        reason: 'The list stops in February: please include every leaver up to today.',
      },
      { hoursAgo: 5 * 24, by: 'both', comment: 'Understood, HR is preparing the March export.' },
    ],
  },
  {
    title: 'Vulnerability scan results (last 90 days)',
    description:
      'Authenticated scan reports of the production network for the last 90 days, with the remediation status of high findings.',
    priority: 'high',
    due: -10,
    project: PENTEST,
    requester: 'admin',
    assignees: [],
    teams: ['Security Engineering'],
    createdHoursAgo: 11 * 24 + 20,
    steps: [
      {
        hoursAgo: 11 * 24,
        by: 'james',
        file: { name: 'vulnerability-scan-summary.pdf', text: 'Vulnerability scan summary, last 90 days' },
      },
      { hoursAgo: 11 * 24 - 1, by: 'james', action: 'submit' },
      { hoursAgo: 10 * 24, by: 'admin', action: 'accept' },
      { hoursAgo: 10 * 24 - 1, by: 'admin', comment: 'Thanks, this covers the whole period.' },
    ],
  },
  {
    title: 'Business continuity plan',
    description: 'The business continuity plan and the date of its last review.',
    priority: 'low',
    due: 20,
    project: null,
    requester: 'consultant',
    assignees: ['lead'],
    teams: [],
    createdHoursAgo: 11 * 24,
    steps: [
      {
        hoursAgo: 9 * 24,
        by: 'consultant',
        action: 'cancel',
        reason: 'Covered by the ISO 27001 evidence already on file.',
      },
    ],
  },
  {
    title: 'Cardholder data flow diagram',
    description:
      'A diagram of every flow of cardholder data, from capture to storage and deletion, with the systems involved.',
    priority: 'critical',
    due: 10,
    project: PCI,
    requester: 'consultant',
    assignees: ['member', 'both'],
    teams: [],
    createdHoursAgo: 10 * 24 + 4,
    steps: [{ hoursAgo: 4 * 24, by: 'member', comment: 'Working on it with the network team; expect it next week.' }],
  },
  {
    title: 'Change management ticket sample',
    description: 'The tickets of the 25 production changes in the sample list, with their approvals and test evidence.',
    priority: 'medium',
    due: null,
    project: SOC2,
    task: 'CC8.1',
    requester: 'consultant',
    assignees: [],
    teams: ['Compliance Team'],
    createdHoursAgo: 10 * 24,
    steps: [],
  },
  {
    title: 'Security awareness training completion',
    description: 'Completion records of the annual security awareness training for every employee and contractor.',
    priority: 'low',
    due: -2,
    project: SOC2,
    requester: 'consultant',
    assignees: ['both'],
    teams: [],
    createdHoursAgo: 9 * 24 + 12,
    steps: [
      {
        hoursAgo: 3 * 24,
        by: 'both',
        file: {
          name: 'training-completion.csv',
          text: 'employee,course,completed\nE1001,Security Awareness 2026,2026-02-03\nE1002,Security Awareness 2026,2026-02-05\n',
        },
      },
      { hoursAgo: 3 * 24 - 1, by: 'both', action: 'submit' },
    ],
  },
  {
    title: 'Incident response plan and last test',
    description: 'The incident response plan and the report of its last test or tabletop exercise.',
    priority: 'medium',
    due: -4,
    project: null,
    requester: 'consultant',
    assignees: ['lead'],
    teams: [],
    createdHoursAgo: 9 * 24,
    steps: [
      {
        hoursAgo: 8 * 24,
        by: 'lead',
        file: { name: 'Incident Response Plan.pdf', text: 'Incident Response Plan, version 3' },
      },
      { hoursAgo: 8 * 24 - 1, by: 'lead', action: 'submit' },
      {
        hoursAgo: 7 * 24,
        by: 'consultant',
        action: 'return',
        reason: 'Please add the report of the last incident response test.',
      },
      {
        hoursAgo: 6 * 24,
        by: 'lead',
        file: {
          name: 'tabletop-exercise-report.txt',
          text: 'Ransomware tabletop exercise: 14 participants, 6 findings, all closed.\n',
        },
      },
      { hoursAgo: 6 * 24 - 1, by: 'lead', action: 'submit' },
      { hoursAgo: 5 * 24, by: 'consultant', action: 'accept' },
      { hoursAgo: 5 * 24 - 1, by: 'consultant', comment: 'Accepted: the plan and the test report cover CC7.4.' },
    ],
  },
  {
    title: 'Backup restore test evidence',
    description:
      'Evidence of the last restore test of the production database backups: date, data restored and result.',
    priority: 'high',
    due: -1,
    project: SOC2,
    control: 'CC7.5',
    requester: 'admin',
    assignees: ['both'],
    teams: [],
    createdHoursAgo: 8 * 24,
    steps: [
      {
        hoursAgo: 7 * 24,
        by: 'both',
        file: {
          name: 'restore-test-2025.txt',
          text: 'Restore test 2025-11-12: production database restored to staging in 47 minutes, checksums match.\n',
        },
      },
      { hoursAgo: 7 * 24 - 1, by: 'both', action: 'submit' },
      { hoursAgo: 6 * 24, by: 'admin', action: 'accept' },
      {
        hoursAgo: 2 * 24,
        by: 'admin',
        action: 'reopen',
        reason: "The restore test predates the review period: please send this year's test.",
      },
    ],
  },
  {
    title: 'Penetration test remediation evidence',
    description: 'Tickets and retest screenshots for every critical and high finding of the external test.',
    priority: 'critical',
    due: 1,
    project: PENTEST,
    requester: 'consultant',
    assignees: ['lead'],
    teams: ['Security Engineering'],
    createdHoursAgo: 4 * 24,
    steps: [
      {
        hoursAgo: 20,
        by: 'james',
        file: {
          name: 'remediation-tickets.csv',
          text: 'finding,ticket,status\nEXT-01,SEC-412,fixed\nEXT-02,SEC-415,fixed\nEXT-03,SEC-420,in progress\n',
        },
      },
    ],
  },
  {
    title: 'MFA configuration screenshots',
    description:
      'Screenshots of the multi-factor authentication policy of the identity provider and of its enforcement for administrators.',
    priority: 'medium',
    due: null,
    project: SOC2,
    control: 'CC6.1',
    requester: 'consultant',
    assignees: ['member'],
    teams: [],
    createdHoursAgo: 3 * 24,
    steps: [
      {
        hoursAgo: 2 * 24 + 6,
        by: 'member',
        comment: 'Do you need the admin console settings or the user enrolment report?',
      },
      {
        hoursAgo: 2 * 24 + 2,
        by: 'consultant',
        comment: 'Neither after all: the Okta evidence of the access review covers it.',
      },
      { hoursAgo: 2 * 24, by: 'consultant', action: 'cancel' },
    ],
  },
  {
    title: 'Data retention schedule',
    description:
      'The data retention schedule with the retention period and the deletion method of each kind of record.',
    priority: 'medium',
    due: null,
    project: null,
    requester: 'consultant',
    assignees: ['lead'],
    teams: [],
    createdHoursAgo: 2,
    steps: [],
  },
];

/** Globex's requests: its requests module is off, so nobody reaches them through the api. */
const GLOBEX_REQUESTS: DemoRequest[] = [
  {
    title: 'Risk register export',
    description: 'The current risk register, with owners and treatment plans.',
    priority: 'high',
    due: 7,
    project: HIPAA,
    requester: 'admin',
    assignees: ['client'],
    teams: [],
    createdHoursAgo: 6 * 24,
    steps: [],
  },
  {
    title: 'ePHI system inventory',
    description: 'Every system that creates, receives, maintains or transmits ePHI, with its owner.',
    priority: 'medium',
    due: -3,
    project: HIPAA,
    requester: 'admin',
    assignees: [],
    teams: ['Security Team'],
    createdHoursAgo: 5 * 24,
    steps: [
      {
        hoursAgo: 2 * 24,
        by: 'client',
        file: { name: 'ephi-systems.csv', text: 'system,owner\nEHR,Clinical IT\nClaims,Finance\n' },
      },
      { hoursAgo: 2 * 24 - 1, by: 'client', action: 'submit' },
    ],
  },
  {
    title: 'Workforce HIPAA training records',
    description: 'HIPAA training completion of the workforce for the last year.',
    priority: 'low',
    due: null,
    project: null,
    requester: 'admin',
    assignees: ['client'],
    teams: [],
    createdHoursAgo: 4 * 24,
    steps: [
      {
        hoursAgo: 3 * 24,
        by: 'client',
        file: { name: 'hipaa-training.txt', text: 'HIPAA training 2026: 212 of 212 completed.\n' },
      },
      { hoursAgo: 3 * 24 - 1, by: 'client', action: 'submit' },
      { hoursAgo: 2 * 24, by: 'admin', action: 'accept' },
    ],
  },
];

const DEMO_REQUESTS: Record<string, DemoRequest[]> = { 'Acme Corp': ACME_REQUESTS, 'Globex Inc': GLOBEX_REQUESTS };

export interface RequestSeedContext {
  /** The seed's "now" (ms). */
  now: number;
  /** Demo user ids by key (seed.ts's keys). */
  users: Map<string, string>;
  companies: Map<string, string>;
  /** Team ids by `company/team`. */
  teams: Map<string, string>;
  projects: SeededProject[];
  storage?: BlobStorage;
}

export interface SeededRequest {
  id: string;
  companyId: string;
  company: string;
  reference: string;
  title: string;
}

/** Seeds the demo requests and returns them (the seed's bell notifications link to some). */
export async function seedRequests(db: Kysely<Database>, context: RequestSeedContext): Promise<SeededRequest[]> {
  const { now, storage } = context;
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();
  const userId = (key: string) => {
    const id = context.users.get(key);
    if (!id) throw new Error(`seed request: no user ${key}`);
    return id;
  };
  const names = new Map(
    (await db.selectFrom('users').select(['id', 'first_name', 'last_name']).execute()).map((u) => [
      u.id,
      `${u.first_name} ${u.last_name}`,
    ]),
  );

  const seeded: SeededRequest[] = [];
  const requests: Insertable<RequestsTable>[] = [];
  const assignees: Insertable<RequestAssigneesTable>[] = [];
  const teams: Insertable<RequestTeamsTable>[] = [];
  const files: Insertable<RequestFilesTable>[] = [];
  const comments: Insertable<RequestCommentsTable>[] = [];
  const events: Insertable<RequestEventsTable>[] = [];

  for (const [company, demos] of Object.entries(DEMO_REQUESTS)) {
    const companyId = context.companies.get(company);
    if (!companyId) continue;
    for (const [index, demo] of demos.entries()) {
      const id = randomUUID();
      const reference = formatRequestReference(index + 1);
      const project = demo.project
        ? context.projects.find((p) => p.title === demo.project && p.companyId === companyId)
        : undefined;
      if (demo.project && !project) throw new Error(`seed request ${reference}: no project ${demo.project}`);
      const task =
        project && demo.task
          ? await db
              .selectFrom('tasks')
              .select('id')
              .where('project_id', '=', project.id)
              .where('parent_id', 'is', null)
              .where('reference_id', 'like', `${demo.task}-%`)
              .orderBy('reference_id')
              .limit(1)
              .executeTakeFirst()
          : undefined;
      const control =
        project && demo.control
          ? await db
              .selectFrom('controls')
              .select('id')
              .where('project_id', '=', project.id)
              .where('name', '=', demo.control)
              .executeTakeFirst()
          : undefined;
      const requesterId = userId(demo.requester);
      const createdAt = at(demo.createdHoursAgo);
      const event = (
        actorId: string,
        type: RequestEvent['type'],
        detail: RequestEvent['detail'],
        time: string,
        internal = false,
      ) =>
        events.push({
          id: randomUUID(),
          request_id: id,
          actor_id: actorId,
          type,
          detail: JSON.stringify(detail),
          internal,
          created_at: time,
        });

      // Created and assigned by the requester; a second later, so the history keeps its order.
      event(requesterId, 'created', {}, createdAt);
      const teamIds = demo.teams.map((name) => {
        const teamId = context.teams.get(`${company}/${name}`);
        if (!teamId) throw new Error(`seed request ${reference}: no team ${name}`);
        return teamId;
      });
      for (const key of demo.assignees) assignees.push({ request_id: id, user_id: userId(key) });
      for (const teamId of teamIds) teams.push({ request_id: id, team_id: teamId });
      let last = demo.createdHoursAgo;
      if (demo.assignees.length || demo.teams.length) {
        last -= 1 / 3600;
        event(
          requesterId,
          'assigned',
          { users: demo.assignees.map((key) => names.get(userId(key))!), teams: demo.teams },
          at(last),
        );
      }

      let status: RequestStatus = 'open';
      let fileCount = 0;
      let submittedAt: string | null = null;
      let acceptedAt: string | null = null;
      let canceledAt: string | null = null;
      let returnReason: string | null = null;
      let returnCount = 0;
      for (const step of demo.steps) {
        if (step.hoursAgo >= last) throw new Error(`seed request ${reference}: steps must move forward in time`);
        last = step.hoursAgo;
        const time = at(step.hoursAgo);
        const actorId = userId(step.by);
        if ('file' in step) {
          if (!evidenceEditable(status)) throw new Error(`seed request ${reference}: evidence added while ${status}`);
          if (!storage) continue;
          const buffer = step.file.name.endsWith('.pdf')
            ? tinyPdf(step.file.text)
            : Buffer.from(step.file.text, 'utf8');
          const check = checkFileContent(step.file.name, buffer.subarray(0, 4100));
          if (!check.ok) throw new Error(`seed request file ${step.file.name}: ${check.reason}`);
          const stored = await storage.putBuffer(buffer);
          files.push({
            id: randomUUID(),
            request_id: id,
            company_id: companyId,
            name: step.file.name,
            content_type: check.contentType,
            size: stored.size,
            sha256: stored.sha256,
            storage_key: stored.key,
            uploaded_by: actorId,
            created_at: time,
          });
          fileCount++;
          event(actorId, 'file_added', { name: step.file.name }, time);
        } else if ('comment' in step) {
          const internal = step.internal ?? false;
          comments.push({
            id: randomUUID(),
            request_id: id,
            author_id: actorId,
            body: step.comment,
            internal,
            created_at: time,
          });
          event(actorId, 'comment', { internal }, time, internal);
        } else {
          if (!canApplyAction(step.action, status))
            throw new Error(`seed request ${reference}: cannot ${step.action} while ${status}`);
          if (step.action === 'submit' && storage && fileCount === 0)
            throw new Error(`seed request ${reference}: submitted without evidence`);
          const to = REQUEST_TRANSITIONS[step.action].to;
          event(actorId, 'status', { from: status, to, action: step.action, reason: step.reason ?? null }, time);
          status = to;
          if (step.action === 'submit') submittedAt = time;
          acceptedAt = to === 'accepted' ? time : null;
          canceledAt = to === 'canceled' ? time : null;
          returnReason = to === 'returned' ? step.reason! : null;
          if (step.action === 'return') returnCount++;
        }
      }

      requests.push({
        id,
        company_id: companyId,
        project_id: project?.id ?? null,
        task_id: task?.id ?? null,
        control_id: control?.id ?? null,
        reference,
        number: index + 1,
        title: demo.title,
        description: demo.description,
        internal_note: demo.internalNote ?? null,
        priority: demo.priority,
        due_date: demo.due === null ? null : dayOf(now + demo.due * DAY),
        status,
        return_reason: returnReason,
        return_count: returnCount,
        requester_id: requesterId,
        created_by: requesterId,
        created_at: createdAt,
        updated_at: at(last),
        submitted_at: submittedAt,
        accepted_at: acceptedAt,
        canceled_at: canceledAt,
      });
      seeded.push({ id, companyId, company, reference, title: demo.title });
    }
  }
  await insertInBatches(db, 'requests', requests);
  await insertInBatches(db, 'request_assignees', assignees);
  await insertInBatches(db, 'request_teams', teams);
  await insertInBatches(db, 'request_files', files);
  await insertInBatches(db, 'request_comments', comments);
  await insertInBatches(db, 'request_events', events);
  return seeded;
}
