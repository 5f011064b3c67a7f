/** What the detail page's tests share: people, a request, its history, and files a user picks. */
import { File as NodeFile } from 'node:buffer';
import type {
  RequestComment,
  RequestDetail,
  RequestEvent,
  RequestFile,
  RequestUserRef,
} from '@portal/shared/core/requests';
import type { Company, User } from '@portal/shared/core/schemas';
import type { SessionState } from '@portal/shared/web/session';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };

export const ada: RequestUserRef = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'admin@demo.test',
  isTevora: true,
};
export const lee: RequestUserRef = {
  id: 'u2',
  firstName: 'Lee',
  lastName: 'Lead',
  email: 'lead@acme.test',
  isTevora: false,
};

function user(ref: RequestUserRef): User {
  return {
    id: ref.id,
    firstName: ref.firstName,
    lastName: ref.lastName,
    title: null,
    email: ref.email,
    login: ref.email,
    avatar: null,
    status: 'active',
    primaryPhone: null,
    isTevora: ref.isTevora,
    isAuditor: false,
    admin: { active: false },
    sendDailyEmails: false,
    metadata: { firstLogin: false, isFederated: false, isLead: false },
    projectRoles: [],
    ldhmac: 'x',
  };
}

const sessionOf = (ref: RequestUserRef): Partial<SessionState> => ({
  user: user(ref),
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
});
export const staffSession = sessionOf(ada);
export const clientSession = sessionOf(lee);

export function makeFile(id: string, name: string, extra: Partial<RequestFile> = {}): RequestFile {
  return {
    id,
    requestId: 'r1',
    name,
    contentType: 'application/pdf',
    size: 2048,
    uploadedBy: lee,
    createdAt: '2026-03-02T15:30:00.000Z',
    canDelete: false,
    ...extra,
  };
}

/** Staff's view of an open request (manage: edit, cancel; evidence may change). */
export function makeRequest(extra: Partial<RequestDetail> = {}): RequestDetail {
  return {
    id: 'r1',
    companyId: 'c1',
    reference: 'REQ-0012',
    title: 'Firewall review',
    status: 'open',
    priority: 'high',
    dueDate: '2026-04-30',
    overdue: false,
    project: { id: 'p1', title: 'SOC 2 Type II 2026' },
    requester: ada,
    assignees: [lee],
    teams: [{ id: 'tm1', name: 'IT' }],
    fileCount: 0,
    commentCount: 0,
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
    description: 'Export the firewall rules.',
    internalNote: 'Check rule 12.',
    task: null,
    control: null,
    returnReason: null,
    submittedAt: null,
    acceptedAt: null,
    canceledAt: null,
    files: [],
    permissions: { manage: true, respond: false, actions: ['cancel'], uploadEvidence: true, commentInternal: true },
    ...extra,
  };
}

export function makeEvent(
  id: string,
  type: RequestEvent['type'],
  detail: RequestEvent['detail'] = {},
  actor: RequestUserRef | null = ada,
): RequestEvent {
  return {
    id,
    requestId: 'r1',
    type,
    actor,
    detail,
    createdAt: `2026-03-0${Math.min(9, Number(id.replace(/\D/g, '')) || 1)}T10:00:00.000Z`,
  };
}

export function makeComment(id: string, body: string, extra: Partial<RequestComment> = {}): RequestComment {
  return { id, requestId: 'r1', author: lee, body, internal: false, createdAt: '2026-03-02T10:00:00.000Z', ...extra };
}

/** A reply of the api with the error body every failure carries. */
export function apiError(code: string, message: string, details?: { field: string; message: string }[]) {
  return { code, message, requestId: 'req-1', ...(details ? { details } : {}) };
}

/**
 * A file as a user picks or drops it. Node's File, because the multipart body is built with the
 * FormData of Node's fetch (which msw reads), and that FormData takes only Node's Blob.
 */
export function pickedFile(name: string, content = 'hello'): File {
  return new NodeFile([content], name, { type: 'application/pdf' }) as unknown as File;
}
