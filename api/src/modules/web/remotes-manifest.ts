/**
 * The remotes manifest (`/remotes.json`: remote name -> URL of its mf-manifest.json), as the shell reads
 * it to find each remote's release.
 *
 * A broken manifest cannot take the portal down: REMOTES_MANIFEST_FILE is read again on every use, and
 * when it cannot be read or is not a manifest, the last one that was good stays in force (at start, the
 * one of REMOTES_MANIFEST or the built-in default) and the log says so, once per new problem.
 *
 * Each user is told only of the remotes they may mount: a remote gated by a module (the module its
 * declaration names, remote-declarations.ts) is listed when the user may use that module in at least
 * one of their companies, one without a gate (Settings) to every signed-in user, one without a good
 * declaration (which the shell could not show anyway) to nobody; nothing to a signed-out visitor.
 */
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { REMOTES, type ModuleName } from '@portal/shared/core/modules';
import { remotesManifestSchema, type RemoteDeclaration, type RemotesManifest } from '@portal/shared/core/schemas';
import type { AppConfig } from '../../config';
import type { CompanyViewer } from '../../db/companies';
import { modulesUsableAnywhere } from '../../db/module-access';
import type { Database } from '../../db/schema';

export function defaultRemotesManifest(): RemotesManifest {
  return Object.fromEntries(REMOTES.map((name) => [name, `/remotes/${name}/mf-manifest.json`]));
}

/** What is wrong with a manifest file, said after its name ("is not JSON"); `missing` when there is no file. */
export class ManifestFileError extends Error {
  constructor(
    message: string,
    readonly missing = false,
  ) {
    super(message);
  }
}

/** Reads a remotes manifest file (REMOTES_MANIFEST_FILE); throws a ManifestFileError saying what is wrong with it. */
export async function readManifestFile(file: string): Promise<RemotesManifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ManifestFileError(`cannot be read (${code ?? (error as Error).message})`, code === 'ENOENT');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestFileError('is not JSON');
  }
  const parsed = remotesManifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ManifestFileError(
      `is not a map of remote name -> manifest URL (${first ? `${first.path.join('.') || 'the file'}: ${first.message}` : 'invalid'})`,
    );
  }
  return parsed.data;
}

export interface RemotesManifestSource {
  /** The manifest in force: the file's when it is good, else the last good one. Never throws. */
  current(): Promise<RemotesManifest>;
}

export function remotesManifestSource(
  config: Pick<AppConfig, 'remotesManifest' | 'remotesManifestFile'>,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): RemotesManifestSource {
  const file = config.remotesManifestFile;
  let lastGood: RemotesManifest = config.remotesManifest ?? defaultRemotesManifest();
  let lastGoodFrom = config.remotesManifest ? 'REMOTES_MANIFEST' : 'the built-in default';
  /** The problem last logged: a file that stays broken is reported once, not on every page. */
  let reported: string | null = null;
  return {
    async current() {
      if (!file) return lastGood;
      try {
        lastGood = await readManifestFile(file);
        lastGoodFrom = 'REMOTES_MANIFEST_FILE';
        if (reported !== null) log.info({ file }, 'REMOTES_MANIFEST_FILE is good again: in force');
        reported = null;
      } catch (error) {
        const problem = (error as Error).message;
        if (problem !== reported) {
          log.error(
            { file, problem },
            `REMOTES_MANIFEST_FILE ${problem}: the last good manifest (${lastGoodFrom}) stays in force`,
          );
          reported = problem;
        }
      }
      return lastGood;
    },
  };
}

/**
 * The entries of `manifest` this user may mount (see the file's header); `viewer` null: signed out, none.
 */
export async function remotesFor(
  db: Kysely<Database>,
  manifest: RemotesManifest,
  declarations: ReadonlyMap<string, RemoteDeclaration>,
  viewer: CompanyViewer | null,
): Promise<RemotesManifest> {
  if (!viewer) return {};
  const declared = Object.entries(manifest).filter(([name]) => declarations.has(name));
  const gated = declared.some(([name]) => declarations.get(name)?.module);
  const usable = gated ? await modulesUsableAnywhere(db, viewer) : new Set<ModuleName>();
  return Object.fromEntries(
    declared.filter(([name]) => {
      const module = declarations.get(name)?.module;
      return !module || usable.has(module);
    }),
  );
}
