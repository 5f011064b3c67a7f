/** Reports as the api answers them (contract shared/src/core/reports), for the remote's unit tests. */
import type {
  ControlsReport,
  ReportMeta,
  ReportOptions,
  RequestsReport,
  StatusReport,
  WorkloadReport,
} from '@portal/shared/core/reports';

export const COMPANY_ID = 'c1';

export const sampleOptions: ReportOptions = {
  kinds: ['status', 'requests', 'controls', 'workload'],
  projects: [
    { id: 'p1', title: 'SOC 2 Type II', status: 'active' },
    { id: 'p2', title: 'Vendor risk review', status: 'pending' },
  ],
};

export const sampleMeta = (over: Partial<ReportMeta> = {}): ReportMeta => ({
  company: { id: COMPANY_ID, name: 'Acme Corp' },
  project: null,
  from: null,
  to: null,
  today: '2026-11-23',
  generatedAt: '2026-11-23T08:00:00.000Z',
  ...over,
});

export const sampleStatus = (meta = sampleMeta()): StatusReport => ({
  kind: 'status',
  meta,
  totals: { tasks: 40, open: 25, closed: 15, overdue: 6, percentClosed: 37.5 },
  byStatus: [
    { status: 'OPEN', count: 12 },
    { status: 'IN_PROGRESS', count: 8 },
    { status: 'INCOMPLETE', count: 2 },
    { status: 'IN_REVIEW', count: 3 },
    { status: 'COMPLETED', count: 13 },
    { status: 'NOT_APPLICABLE', count: 2 },
  ],
  byProject: [
    {
      projectId: 'p1',
      title: 'SOC 2 Type II',
      status: 'active',
      tasks: 30,
      open: 18,
      closed: 12,
      overdue: 5,
      percentClosed: 40,
    },
    {
      projectId: 'p2',
      title: 'Vendor risk review',
      status: 'pending',
      tasks: 10,
      open: 7,
      closed: 3,
      overdue: 1,
      percentClosed: 30,
    },
  ],
  progress: {
    bucket: 'week',
    points: [
      { start: '2026-11-02', end: '2026-11-08', created: 20, closed: 5, open: 15 },
      { start: '2026-11-09', end: '2026-11-15', created: 12, closed: 6, open: 21 },
      { start: '2026-11-16', end: '2026-11-22', created: 8, closed: 4, open: 25 },
    ],
  },
});

export const sampleRequests = (meta = sampleMeta()): RequestsReport => ({
  kind: 'requests',
  meta,
  totals: {
    requests: 14,
    active: 9,
    overdue: 3,
    accepted: 3,
    reviewed: 5,
    returned: 2,
    returnedRate: 0.4,
    averageDaysToAccept: 4.5,
  },
  byStatus: [
    { status: 'open', count: 5 },
    { status: 'submitted', count: 2 },
    { status: 'returned', count: 2 },
    { status: 'accepted', count: 3 },
    { status: 'canceled', count: 2 },
  ],
  openByAge: [
    { bucket: 'week', count: 4 },
    { bucket: 'month', count: 3 },
    { bucket: 'quarter', count: 2 },
    { bucket: 'older', count: 0 },
  ],
  timeToAccept: [
    { bucket: 'day', count: 1 },
    { bucket: 'week', count: 1 },
    { bucket: 'month', count: 1 },
    { bucket: 'longer', count: 0 },
  ],
  byAssignee: [
    { userId: 'u1', teamId: null, name: 'Ada Lovelace', active: 5, overdue: 2, submitted: 1, accepted: 2, returned: 1 },
    { userId: null, teamId: null, name: 'Unassigned', active: 4, overdue: 1, submitted: 1, accepted: 1, returned: 1 },
  ],
});

export const sampleControls = (meta = sampleMeta()): ControlsReport => ({
  kind: 'controls',
  meta,
  totals: {
    controls: 20,
    withTasks: 18,
    withEvidence: 8,
    pointsOfFocus: 50,
    pointsOfFocusCovered: 21,
    percentCovered: 40,
  },
  byProject: [
    {
      projectId: 'p1',
      title: 'SOC 2 Type II',
      controls: 20,
      withTasks: 18,
      withEvidence: 8,
      pointsOfFocus: 50,
      pointsOfFocusCovered: 21,
      percentCovered: 40,
    },
  ],
});

export const sampleWorkload = (meta = sampleMeta(), requestsIncluded = true): WorkloadReport => ({
  kind: 'workload',
  meta,
  requestsIncluded,
  people: [
    {
      userId: 'u1',
      name: 'Ada Lovelace',
      email: 'ada@acme.test',
      staff: false,
      openTasks: 7,
      overdueTasks: 2,
      activeRequests: requestsIncluded ? 5 : 0,
      overdueRequests: requestsIncluded ? 2 : 0,
      total: requestsIncluded ? 12 : 7,
    },
    {
      userId: 'u2',
      name: 'Carla Consultant',
      email: 'consultant@demo.test',
      staff: true,
      openTasks: 4,
      overdueTasks: 1,
      activeRequests: 0,
      overdueRequests: 0,
      total: 4,
    },
  ],
  totals: {
    openTasks: 25,
    overdueTasks: 6,
    unassignedTasks: 14,
    activeRequests: requestsIncluded ? 9 : 0,
    overdueRequests: requestsIncluded ? 3 : 0,
    unassignedRequests: requestsIncluded ? 4 : 0,
  },
});
