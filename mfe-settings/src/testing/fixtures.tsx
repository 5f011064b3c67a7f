/** What the settings features' tests share: users, companies and sessions, an api server, files, and antd queries. */
import { File as NodeFile } from 'node:buffer';
import { settingsPermissionsFor, type PermissionSubject } from '@portal/shared/core/modules';
import type { AccessPermissions, Company, User } from '@portal/shared/core/schemas';
import type { SessionState } from '@portal/shared/web/session';

export { AddressQuery, button, findDialog, findHeading, setupTestServer, setupUser } from '@portal/shared/testing';

const ALL_ON = { risks: true, projects: true, requests: true, reports: true, assets: true };

export const clientUser: User = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  title: 'CISO',
  email: 'ada@acme.test',
  login: 'ada@acme.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: false,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'x',
};

export const staffAdmin: User = {
  ...clientUser,
  id: 's1',
  firstName: 'Sam',
  lastName: 'Staff',
  email: 'admin@demo.test',
  login: 'admin@demo.test',
  isTevora: true,
  admin: { active: true },
};

export const acme: Company = { id: 'c1', name: 'Acme', logo: null, modulesAccess: ALL_ON };

export const globex: Company = {
  id: 'c2',
  name: 'Globex Inc',
  logo: null,
  modulesAccess: { ...ALL_ON, requests: false },
};

/** `n` companies named Company 01… with every module on except requests on the even ones. */
export function makeCompanies(n: number): Company[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i + 1}`,
    name: `Company ${String(i + 1).padStart(2, '0')}`,
    logo: null,
    modulesAccess: { ...ALL_ON, requests: i % 2 === 0 },
  }));
}

/** A signed-in session in company c1 (Acme) with the settings permissions of `who` (a client company admin by default). */
export function sessionFor(who: Partial<PermissionSubject> = {}, user: Partial<User> = {}): Partial<SessionState> {
  const subject: PermissionSubject = {
    isTevora: false,
    isAuditor: false,
    isStaffAdmin: false,
    companyRole: 'admin',
    ...who,
  };
  const access: AccessPermissions = {
    modulesAccess: acme.modulesAccess,
    settingsPermissions: settingsPermissionsFor(subject),
  };
  return {
    user: {
      ...clientUser,
      isTevora: subject.isTevora,
      isAuditor: subject.isAuditor,
      admin: { active: subject.isStaffAdmin },
      ...user,
    },
    loggedIn: true,
    companies: [acme],
    companiesLoaded: true,
    selectedCompanyId: acme.id,
    company: acme,
    access,
    brand: 'Tevora',
  };
}

/** A 400 of the api naming fields. */
export function validationFailed(
  details: { field: string; message: string }[],
  status = 400,
  code = 'validation_failed',
) {
  return {
    status,
    body: { code, message: `Invalid field: ${details.map((d) => d.field).join(', ')}`, requestId: 'req-1', details },
  };
}

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Node's File: jsdom's can neither be read as bytes nor sent by the test fetch. */
function fileOf(head: number[], size: number, name: string, type: string): File {
  const data = new Uint8Array(size);
  data.set(head);
  return new NodeFile([data], name, { type }) as unknown as File;
}

export const pngFile = (size = 64, name = 'image.png') => fileOf(PNG_HEAD, size, name, 'image/png');
/** A Windows program renamed to .png: its name and claimed type lie, its first bytes do not. */
export const exeAsPngFile = (name = 'image.png') => fileOf([0x4d, 0x5a, 0x90, 0x00, 0x03], 64, name, 'image/png');

/** The fields of a multipart request, files described by name and size. */
export async function multipartFields(request: Request): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of (await request.formData()).entries()) {
    out[key] = typeof value === 'string' ? value : `file ${value.name} (${value.size} bytes)`;
  }
  return out;
}
