/** The contract between the shell and a remote: each remote exposes `./App`, a component of this type. */
import type { ComponentType } from 'react';

export interface RemoteAppProps {
  /** The path the shell mounted the remote at (e.g. "/requests"); the remote's routes are relative to it. */
  basePath: string;
}

export type RemoteApp = ComponentType<RemoteAppProps>;
export interface RemoteAppModule {
  default: RemoteApp;
}

/** Federation container names must be identifiers: "mfe-projects" -> "mfe_projects". */
export function federationName(remote: string): string {
  return remote.replace(/-/g, '_');
}
