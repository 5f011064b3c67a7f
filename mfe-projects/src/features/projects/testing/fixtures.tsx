/** What the project screens' tests share: a session, projects, tasks and people, an api server and antd queries. */
import { screen } from '@testing-library/react';
import type {
  Control,
  ControlDetail,
  Project,
  ProjectMember,
  ProjectUserRef,
  Task,
  TaskDetail,
} from '@portal/shared/core/projects';
import type { Company, User } from '@portal/shared/core/schemas';
import { useNavigate } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';

export { AddressQuery, button, findDialog, findHeading, setupTestServer, setupUser } from '@portal/shared/testing';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };
export const acme: Company = { id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: ALL_ON };

const staff: User = {
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
};

export const session: Partial<SessionState> = {
  user: staff,
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};

export const person = (id: string, firstName: string, lastName = 'Lee'): ProjectUserRef => ({
  id,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@acme.test`,
});

export function makeProject(extra: Partial<Project> = {}): Project {
  return {
    id: 'p1',
    companyId: 'c1',
    title: 'SOC 2 Type II 2026',
    description: null,
    type: 'Audit',
    status: 'active',
    practice: { id: 'pr1', name: 'SOC' },
    startDate: '2026-01-05',
    dueDate: '2026-06-30',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    tasksTotal: 30,
    tasksDone: 3,
    tasksOverdue: 1,
    leadConsultant: person('u1', 'Sam', 'Staff'),
    clientLead: person('u2', 'Ann'),
    permissions: { manage: true, write: true, manageRoster: true },
    myRole: 'Lead Consultant',
    ...extra,
  };
}

export function makeTask(n: number, extra: Partial<Task> = {}): Task {
  return {
    id: `t${n}`,
    projectId: 'p1',
    parentId: null,
    referenceId: `CC-${String(n).padStart(2, '0')}`,
    title: `Task ${n}`,
    status: 'OPEN',
    dueDate: null,
    overdue: false,
    assignees: [],
    subtaskCount: 0,
    subtasksDone: 0,
    commentCount: 0,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...extra,
  };
}

export function makeTaskDetail(extra: Partial<TaskDetail> = {}): TaskDetail {
  return {
    ...makeTask(1),
    description: null,
    parent: null,
    subtasks: [],
    controls: [],
    createdBy: person('u1', 'Sam', 'Staff'),
    completedAt: null,
    permissions: { edit: true, changeStatus: true, comment: true },
    ...extra,
  };
}

export function makeControl(n: number, extra: Partial<Control> = {}): Control {
  return {
    id: `k${n}`,
    projectId: 'p1',
    name: `CC6.${n}`,
    title: `Control ${n}`,
    taskCount: 2,
    tasksDone: 1,
    pointOfFocusCount: 0,
    ...extra,
  };
}

export function makeControlDetail(extra: Partial<ControlDetail> = {}): ControlDetail {
  return { ...makeControl(1), description: null, tasks: [], pointsOfFocus: [], permissions: { edit: true }, ...extra };
}

export function member(user: ProjectUserRef, role: ProjectMember['role'], isTevora = false): ProjectMember {
  return { ...user, role, isTevora, title: null, status: 'active' };
}

/** A reply of the api with the error body every failure carries. */
export function apiError(
  status: number,
  code: string,
  message: string,
  details?: { field: string; message: string }[],
) {
  return { status, body: { code, message, requestId: 'req-1', ...(details ? { details } : {}) } };
}

/** The browser's Back button. */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      Browser back
    </button>
  );
}

export const address = () => screen.getByLabelText('query').textContent;

/** The option `text` of the open antd Select. */
export function findOption(text: string): Promise<HTMLElement> {
  return screen.findByText(text, { selector: '.ant-select-item-option-content' });
}

/** The texts of the options the open antd Select offers. */
export function optionTexts(): string[] {
  return [
    ...document.querySelectorAll(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content',
    ),
  ].map((o) => o.textContent ?? '');
}

/** Whether an antd dialog found earlier is closed (hidden or gone). */
export function isClosed(dialog: HTMLElement): boolean {
  return !dialog.isConnected || (dialog.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display === 'none';
}
