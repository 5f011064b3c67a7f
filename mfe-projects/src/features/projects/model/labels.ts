/** How the project screens name people and status moves (colours: app/status-colors.ts). */
import type { Project, ProjectStatus, ProjectUserRef } from '@portal/shared/core/projects';

/** The button that moves a project from `from` to `to` (PROJECT_TRANSITIONS). */
export function projectMoveLabel(from: ProjectStatus, to: ProjectStatus): string {
  switch (to) {
    case 'active':
      return from === 'completed' ? 'Reopen' : 'Activate';
    case 'on_hold':
      return 'Put on hold';
    case 'completed':
      return 'Complete';
    case 'canceled':
      return 'Cancel';
    case 'pending':
      return 'Restore';
  }
}

/** Moves that are hard to undo or end the work: asked for twice. */
export const CONFIRMED_PROJECT_MOVES: readonly ProjectStatus[] = ['canceled', 'completed'];

/**
 * Why a status move is sure to be refused, from what the project shows (the api's rules: activation
 * needs a Client Lead and a Lead Consultant, a project with tasks cannot be canceled), or null. The
 * move is then not offered: its button is off, with this reason beside it. What the project does not
 * show (a suspended lead, files) is still refused by the api, with its message.
 */
export function projectMoveBlocker(
  project: Pick<Project, 'clientLead' | 'leadConsultant' | 'tasksTotal'>,
  to: ProjectStatus,
): string | null {
  if (to === 'active' && !project.clientLead) return 'Add a Client Lead on the team roster to activate the project.';
  if (to === 'active' && !project.leadConsultant) {
    return 'Add a Lead Consultant on the team roster to activate the project.';
  }
  if (to === 'canceled' && project.tasksTotal > 0) return 'A project with tasks cannot be canceled.';
  return null;
}

export function personName(user: Pick<ProjectUserRef, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
