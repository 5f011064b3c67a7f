/** What the requests screens' tests share: sessions (staff, client, auditor), requests, assignee options and antd helpers. */
import { screen } from '@testing-library/react';
import type {
  RequestAssigneeOptions,
  RequestDetail,
  RequestSummary,
  RequestUserRef,
} from '@portal/shared/core/requests';
import type { Company, User } from '@portal/shared/core/schemas';
import { useLocation, useNavigate } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';

export { button, findDialog, setupTestServer, setupUser } from '@portal/shared/testing';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
export const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };
export const globex: Company = {
  id: 'c2',
  name: 'Globex Inc',
  logo: null,
  modulesAccess: { ...ALL_ON, requests: false },
};

function user(extra: Partial<User>): User {
  return {
    id: 'u1',
    firstName: 'Sam',
    lastName: 'Staff',
    title: null,
    email: 'sam@demo.test',
    login: 'sam@demo.test',
    avatar: null,
    status: 'active',
    primaryPhone: null,
    isTevora: true,
    isAuditor: false,
    admin: { active: false },
    sendDailyEmails: false,
    metadata: { firstLogin: false, isFederated: false, isLead: false },
    projectRoles: [],
    ldhmac: 'x',
    ...extra,
  };
}

const base: Partial<SessionState> = {
  loggedIn: true,
  companies: [acme, globex],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};
export const staffSession: Partial<SessionState> = { ...base, user: user({}) };
export const auditorSession: Partial<SessionState> = {
  ...base,
  user: user({ id: 'u3', firstName: 'Aud', lastName: 'Itor', isAuditor: true }),
};
export const clientSession: Partial<SessionState> = {
  ...base,
  user: user({
    id: 'u2',
    firstName: 'Ann',
    lastName: 'Lee',
    email: 'ann@acme.test',
    login: 'ann@acme.test',
    isTevora: false,
  }),
};

export const person = (id: string, firstName: string, lastName = 'Lee', isTevora = false): RequestUserRef => ({
  id,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@acme.test`,
  isTevora,
});
export const sam = person('u1', 'Sam', 'Staff', true);
export const ann = person('u2', 'Ann');
export const bob = person('u4', 'Bob', 'Ray');

export const assigneeOptionsReply: RequestAssigneeOptions = {
  users: [ann, bob],
  teams: [{ id: 'tm1', name: 'IT Ops' }],
  requesters: [sam],
  projects: [{ id: 'p1', title: 'SOC 2 Type II 2026' }],
};

export function makeRequest(n: number, extra: Partial<RequestSummary> = {}): RequestSummary {
  return {
    id: `r${n}`,
    companyId: 'c1',
    reference: `REQ-${String(n).padStart(4, '0')}`,
    title: `Request ${n}`,
    status: 'open',
    priority: 'medium',
    dueDate: null,
    overdue: false,
    project: null,
    requester: sam,
    assignees: [],
    teams: [],
    fileCount: 0,
    commentCount: 0,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-03T10:00:00.000Z',
    ...extra,
  };
}

export function makeRequestDetail(extra: Partial<RequestDetail> = {}): RequestDetail {
  return {
    ...makeRequest(1),
    description: null,
    internalNote: null,
    task: null,
    control: null,
    returnReason: null,
    submittedAt: null,
    acceptedAt: null,
    canceledAt: null,
    files: [],
    permissions: { manage: true, respond: false, actions: ['cancel'], uploadEvidence: false, commentInternal: true },
    ...extra,
  };
}

/** A reply of the api with the error body every failure carries. */
export function apiError(code: string, message: string, details?: { field: string; message: string }[]) {
  return { code, message, requestId: 'req-1', ...(details ? { details } : {}) };
}

/** The address (path and decoded query) and the browser's Back button. */
export function AddressBar() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="address">{pathname + decodeURIComponent(search)}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

export const address = () => screen.getByLabelText('address').textContent;

/** The option `text` of the open antd Select. */
export function findOption(text: string): Promise<HTMLElement> {
  return screen.findByText(text, { selector: '.ant-select-item-option-content' });
}

/** A list row by the text of one of its links (reference or title). */
export const rowOf = (text: string) =>
  screen.getByText(text, { selector: '.ant-table-row a' }).closest('tr') as HTMLElement;
