/**
 * The kinds of stored file that GET /files/:id/signed-url and GET /files/:id/content serve (issue 6):
 * project files, system-setting files, transfer files. Each kind's routes register one FileKind on
 * `app.fileKinds`; the download routes ask each in turn. A kind answers null when the id is not one
 * of its files, or when the caller may not see it (then the caller gets 404, never a hint). It throws
 * an HttpError for other refusals (403 transfer_passphrase_required, transfer_passphrase_incorrect).
 */
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../plugins/app/auth';

export interface DownloadTarget {
  /** The version served: the file's current one unless `versionId` named another (kinds without versions: the file id). */
  versionId: string;
  name: string;
  /** The type checked at upload, served as is. */
  contentType: string;
  size: number;
  storageKey: string;
  /** Called once the bytes start to go out (transfers record each download). */
  onDownload?: () => Promise<void>;
}

export interface FileLookup {
  request: FastifyRequest;
  auth: AuthContext;
  fileId: string;
  versionId?: string;
  /** sign: GET /files/:id/signed-url (passphrases are checked here); download: serving a signed URL (access re-checked). */
  phase: 'sign' | 'download';
}

export interface FileKind {
  name: string;
  find(lookup: FileLookup): Promise<DownloadTarget | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    fileKinds: FileKind[];
  }
}

/**
 * The order the kinds are asked in, the most downloaded first (each miss costs a query). The routes
 * are autoloaded (routes/ in folder order), so the order is kept here rather than by registration.
 */
const KIND_ORDER = ['projectFile', 'systemSetting', 'request', 'transferFile'];
const rank = (kind: FileKind) => {
  const at = KIND_ORDER.indexOf(kind.name);
  return at < 0 ? -1 : at;
};

/** Adds a kind to `app.fileKinds`, in KIND_ORDER (a kind not listed, a test's, is asked first). */
export function addFileKind(kinds: FileKind[], kind: FileKind): void {
  kinds.push(kind);
  kinds.sort((a, b) => rank(a) - rank(b));
}

/** The first kind that knows the file and lets the caller see it, or null. */
export async function resolveFile(kinds: readonly FileKind[], lookup: FileLookup): Promise<DownloadTarget | null> {
  for (const kind of kinds) {
    const target = await kind.find(lookup);
    if (target) return target;
  }
  return null;
}
