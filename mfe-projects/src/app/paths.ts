/** The addresses of the project screens, built in one place so every link and crumb agrees with the routes of App.tsx. */

const part = encodeURIComponent;

export const projectPath = (projectId: string) => `/v2/projects/${part(projectId)}`;
export const taskPath = (projectId: string, taskId: string) => `${projectPath(projectId)}/tasks/${part(taskId)}`;
export const controlPath = (projectId: string, controlId: string) =>
  `${projectPath(projectId)}/controls/${part(controlId)}`;
/** The project's Controls tab. */
export const controlsPath = (projectId: string) => `${projectPath(projectId)}?view=controls`;
export const teamRosterPath = (projectId: string) => `${projectPath(projectId)}/team-roster`;

/**
 * A task page opened from the project's Tasks tab carries that tab's address (its page, filters and
 * sort) in the link's state, so leaving the task for the project comes back to the same list.
 */
export interface FromProject {
  projectSearch: string;
}

export function fromProjectOf(state: unknown): FromProject | undefined {
  const search = (state as Partial<FromProject> | null | undefined)?.projectSearch;
  return typeof search === 'string' ? { projectSearch: search } : undefined;
}
