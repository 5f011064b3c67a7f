/** Test data and jsdom shims for this feature's tests. */
import { File as NodeFile } from 'node:buffer';
import type { Company, User } from '@portal/shared/core/schemas';

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

export const clientUser: User = {
  id: 'u1', firstName: 'Ada', lastName: 'Lovelace', title: 'CISO', email: 'ada@acme.test', login: 'ada@acme.test', avatar: null,
  status: 'active', primaryPhone: null, isTevora: false, isAuditor: false, admin: { active: false }, sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false }, projectRoles: [], ldhmac: 'x',
};

export const acme: Company = {
  id: 'c1', name: 'Acme Corp', logo: null, modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
};

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

/** A 400 of the api naming fields. */
export function validationFailed(details: { field: string; message: string }[], status = 400, code = 'validation_failed') {
  return { status, body: { code, message: `Invalid field: ${details.map((d) => d.field).join(', ')}`, requestId: 'req-1', details } };
}

export const globex: Company = {
  id: 'c2', name: 'Globex Inc', logo: null, modulesAccess: { risks: true, projects: true, requests: false, reports: true, assets: true },
};

export const staffAdmin: User = { ...clientUser, id: 's1', firstName: 'Sam', lastName: 'Staff', email: 'admin@demo.test', login: 'admin@demo.test', isTevora: true, admin: { active: true } };
