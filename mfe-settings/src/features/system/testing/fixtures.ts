/** Test data and jsdom shims for this feature's tests. */
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';
import { settingsPermissionsFor, type PermissionSubject } from '@portal/shared/core/modules';
import type { SessionState } from '@portal/shared/web/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

// antd's Form batches watchers in a MessageChannel macrotask; jest-fixed-jsdom has none.
if (typeof globalThis.MessageChannel === 'undefined') {
  class Port {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    other: Port | null = null;
    postMessage(data: unknown) {
      setTimeout(() => this.other?.onmessage?.({ data }), 0);
    }
    close() {}
  }
  globalThis.MessageChannel = class {
    port1 = new Port();
    port2 = new Port();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  } as unknown as typeof MessageChannel;
}

export const me: User = {
  id: 'u1', firstName: 'Ada', lastName: 'Admin', title: null, email: 'ada@acme.test', login: 'ada@acme.test', avatar: null, status: 'active',
  primaryPhone: null, isTevora: false, isAuditor: false, admin: { active: false }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'x',
};

export const company: Company = {
  id: 'c1', name: 'Acme', logo: null, modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
};

/** A signed-in session in company c1 with the settings permissions of `who` (a client company admin by default). */
export function sessionFor(who: Partial<PermissionSubject> = {}, user: Partial<User> = {}): Partial<SessionState> {
  const subject: PermissionSubject = { isTevora: false, isAuditor: false, isStaffAdmin: false, companyRole: 'admin', ...who };
  const access: AccessPermissions = { modulesAccess: company.modulesAccess, settingsPermissions: settingsPermissionsFor(subject) };
  return {
    user: { ...me, isTevora: subject.isTevora, isAuditor: subject.isAuditor, admin: { active: subject.isStaffAdmin }, ...user },
    loggedIn: true,
    companies: [company],
    companiesLoaded: true,
    selectedCompanyId: company.id,
    company,
    access,
    brand: 'Tevora',
  };
}

/**
 * A user-event instance for antd screens. jsdom's getComputedStyle is slow under antd's many injected
 * styles, so pointer-events checks are skipped and buttons are found by their text (a role query with a
 * name takes seconds here).
 */
export const setupUser = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });

/** The button whose text is `text`, inside `container` (the whole page by default). */
export function button(text: string | RegExp, container: HTMLElement = document.body): HTMLButtonElement {
  const label = within(container).getByText(text, { selector: 'button, button *' });
  return label.closest('button') as HTMLButtonElement;
}

/** The most recently opened antd dialog (modal or confirmation) that is still shown. */
export async function findDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const open = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].filter(
      (d) => (d.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display !== 'none',
    );
    if (!open.length) throw new Error('no open dialog');
    return open[open.length - 1];
  });
}

/** A heading by its text: role queries walk every element of antd's large DOM, this does not. */
export function findHeading(text: string): Promise<HTMLElement> {
  return screen.findByText(text, { selector: 'h1, h2, h3, h4, h5, h6' });
}
