/** How the project screens name people and status moves (colours: app/status-colors.ts). */
import type { ProjectStatus, ProjectUserRef } from '@portal/shared/core/projects';

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

export function personName(user: Pick<ProjectUserRef, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
