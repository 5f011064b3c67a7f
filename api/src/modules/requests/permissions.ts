/**
 * What a caller may do with a request, from their access (db/request-access.ts) and the request's
 * status: the rules of the contract (shared/src/core/requests), kept out of the repository, which
 * only reads and writes.
 */
import {
  REQUEST_ACTIONS,
  REQUEST_TRANSITIONS,
  evidenceEditable,
  type RequestAction,
  type RequestDetail,
  type RequestStatus,
} from '@portal/shared/core/requests';
import type { RequestAccess } from '../../db/request-access';
import type { StoredRequestDetail } from '../../db/requests';

type Abilities = Pick<RequestAccess, 'manage' | 'respond'>;

/** The actions the caller may apply to a request in `status`. */
export function allowedRequestActions(access: Abilities, status: RequestStatus): RequestAction[] {
  return REQUEST_ACTIONS.filter((action) => {
    const rule = REQUEST_TRANSITIONS[action];
    return rule.from.includes(status) && (rule.by === 'manage' ? access.manage : access.respond);
  });
}

/**
 * Who may remove an evidence file now (the contract's rule): only while evidence may change (open or
 * returned), for everyone; then staff managers any file, a client only their own upload.
 */
export function canDeleteRequestFile(
  access: Abilities,
  callerId: string,
  status: RequestStatus,
  uploadedBy: string | null,
): boolean {
  if (!evidenceEditable(status)) return false;
  return access.manage || (access.respond && uploadedBy === callerId);
}

/** The request as the repository read it, with what this caller may do with it and with each file. */
export function withPermissions(stored: StoredRequestDetail, access: RequestAccess, callerId: string): RequestDetail {
  const { status } = stored;
  const { files, ...detail } = stored;
  return {
    ...detail,
    files: files.map(({ uploaderId, ...file }) => ({
      ...file,
      canDelete: canDeleteRequestFile(access, callerId, status, uploaderId),
    })),
    permissions: {
      manage: access.manage,
      respond: access.respond,
      actions: allowedRequestActions(access, status),
      uploadEvidence: (access.respond || access.manage) && evidenceEditable(status),
      commentInternal: access.manage,
    },
  };
}
