/**
 * What each remote of the manifest declares of itself: its module gate, where the shell mounts it and
 * its navigation entries (`portal-module.json`, published by every build beside its mf-manifest.json;
 * the contract's remoteDeclarationSchema). The shell builds its routes and navigation from these (the
 * portal config's `remotes`), and /remotes.json gates each remote by its declared module: adding a
 * remote is an entry in the manifest, not a shell release.
 *
 * A declaration is read beside the manifest entry's mf-manifest.json: from the web root this api
 * serves for `/remotes/<name>/…` (a build in `<WEB_ROOT>/<name>/dist`) and `/releases/<name>/<release>/…`
 * (a published release), read again only when its file changes (a release never does); over HTTP for
 * an entry on another host (`https://cdn…/mf-manifest.json`), kept a minute. A remote whose
 * declaration is missing or not valid has no route, no menu entry and is not listed in /remotes.json;
 * the log says why, once per problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { REMOTES } from '@portal/shared/core/modules';
import { remoteDeclarationSchema, type RemoteDeclaration, type RemotesManifest } from '@portal/shared/core/schemas';

/** The file each build publishes next to its mf-manifest.json (shared/federation/webpack-base.js). */
export const DECLARATION_FILE = 'portal-module.json';

/** What is wrong with a declaration that its schema refused, naming the field. */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  return first ? `${first.path.join('.') || 'the file'}: ${first.message}` : 'not a declaration';
}

/** Why a declaration file is not one, in words for the log and the deploy script; null when it is. */
export function declarationProblem(json: unknown): string | null {
  const parsed = remoteDeclarationSchema.safeParse(json);
  return parsed.success ? null : describeIssues(parsed.error.issues);
}

/** The declaration a file's text holds; throws an Error saying what is wrong with it. */
export function parseDeclaration(text: string): RemoteDeclaration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('is not JSON');
  }
  const parsed = remoteDeclarationSchema.safeParse(json);
  if (!parsed.success) throw new Error(`is not a remote's declaration (${describeIssues(parsed.error.issues)})`);
  return parsed.data;
}

/** Reads and checks a declaration file; throws an Error saying what is wrong with it. */
export async function readDeclarationFile(file: string): Promise<RemoteDeclaration> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseDeclaration(text);
}

/**
 * The declaration file of a manifest entry served from `webRoot`, or null (another host, or a path
 * this api does not serve remotes from).
 */
export function declarationFileOf(webRoot: string, entry: string): string | null {
  if (!entry.startsWith('/') || entry.startsWith('//') || entry.includes('\0')) return null;
  // `..` stops at the top: the folder is always one the api serves remotes from
  const folder = path.posix.dirname(path.posix.normalize(entry.split(/[?#]/)[0]));
  const built = /^\/remotes\/([a-z][a-z0-9-]*)(\/.*)?$/.exec(folder);
  if (built) {
    return (REMOTES as readonly string[]).includes(built[1])
      ? path.join(webRoot, built[1], 'dist', built[2] ?? '', DECLARATION_FILE)
      : null;
  }
  const release = /^\/releases\/([a-z][a-z0-9-]*)\/([0-9A-Za-z][0-9A-Za-z.+-]*)(\/.*)?$/.exec(folder);
  return release ? path.join(webRoot, 'releases', release[1], release[2], release[3] ?? '', DECLARATION_FILE) : null;
}

/** The declaration's URL beside an mf-manifest.json on another host (http or https), else null. */
export function declarationUrlOf(entry: string): string | null {
  if (!/^https?:\/\//i.test(entry)) return null;
  try {
    return new URL(DECLARATION_FILE, entry).toString();
  } catch {
    return null;
  }
}

const FETCH_TIMEOUT_MS = 3_000;
const KEEP_FETCHED_MS = 60_000;
const MAX_DECLARATION_BYTES = 64 * 1024;

export interface RemoteDeclarations {
  /** The declaration of each remote of `manifest` that has a good one. Never throws. */
  of(manifest: RemotesManifest): Promise<Map<string, RemoteDeclaration>>;
}

export function remoteDeclarations(webRoot: string, log: Pick<FastifyBaseLogger, 'warn'>): RemoteDeclarations {
  /** By file: the declaration read at that modification time. */
  const cache = new Map<string, { mtimeMs: number; declaration: RemoteDeclaration }>();
  /** The problem last logged for each file: one that stays broken is reported once. */
  const reported = new Map<string, string>();

  /** Logs why `remote` has no declaration, once for each new problem of the file or URL `where`. */
  function warnOnce(where: string, remote: string, problem: string, at: { file: string } | { url: string }): void {
    if (reported.get(where) === problem) return;
    reported.set(where, problem);
    log.warn({ remote, ...at, problem }, `The declaration of ${remote} ${problem}: it has no route nor menu entry`);
  }

  async function read(remote: string, file: string): Promise<RemoteDeclaration | null> {
    try {
      const { mtimeMs } = await fs.promises.stat(file);
      const kept = cache.get(file);
      if (kept && kept.mtimeMs === mtimeMs) return kept.declaration;
      const declaration = await readDeclarationFile(file);
      cache.set(file, { mtimeMs, declaration });
      reported.delete(file);
      return declaration;
    } catch (error) {
      warnOnce(file, remote, (error as NodeJS.ErrnoException).code ? 'cannot be read' : (error as Error).message, {
        file,
      });
      return null;
    }
  }

  /** By URL: the declaration fetched (null: it could not be) and until when it is kept. */
  const fetched = new Map<string, { until: number; declaration: Promise<RemoteDeclaration | null> }>();

  function fetchDeclaration(remote: string, url: string): Promise<RemoteDeclaration | null> {
    const kept = fetched.get(url);
    if (kept && kept.until > Date.now()) return kept.declaration;
    const declaration = (async () => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
        if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
        const text = await res.text();
        if (text.length > MAX_DECLARATION_BYTES) throw new Error('is too large');
        const parsed = parseDeclaration(text);
        reported.delete(url);
        return parsed;
      } catch (error) {
        const problem = error instanceof Error && error.name !== 'TimeoutError' ? error.message : 'did not answer';
        warnOnce(url, remote, problem, { url });
        return null;
      }
    })();
    fetched.set(url, { until: Date.now() + KEEP_FETCHED_MS, declaration });
    return declaration;
  }

  return {
    async of(manifest) {
      const out = new Map<string, RemoteDeclaration>();
      await Promise.all(
        Object.entries(manifest).map(async ([remote, entry]) => {
          const file = declarationFileOf(webRoot, entry);
          const url = file ? null : declarationUrlOf(entry);
          const declaration = file ? await read(remote, file) : url ? await fetchDeclaration(remote, url) : null;
          if (declaration) out.set(remote, declaration);
        }),
      );
      return out;
    },
  };
}
