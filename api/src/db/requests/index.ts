/**
 * Evidence requests (issue 8): the repository. Contract: shared/src/core/requests; who sees what:
 * db/request-access.ts. Every function takes a Kysely (the db or a transaction). By concern: list.ts
 * (the list, its filters and summaries), detail.ts (one request, its files and history), writes.ts
 * and assignees.ts (inserts, edits, transitions, assignees), people.ts (people and teams, pickers);
 * internal.ts holds what they share. This file names what the rest of the api may use.
 */
export {
  listRequestEvents,
  listRequestFiles,
  recordRequestEvents,
  requestDetail,
  requestFileCount,
  type NewRequestEvent,
  type StoredRequestDetail,
  type StoredRequestFile,
} from './detail';
export {
  listRequestIds,
  requestSummariesByIds,
  visibleRequestIds,
  type RequestListOptions,
  type RequestListQuery,
} from './list';
export {
  activeTeamMemberIds,
  activeTeamMembersByTeam,
  displayName,
  requestAssigneeOptions,
  requestParticipantsByRequest,
  requestTeamRefs,
  requestUserRefs,
  resolveRequestAssignees,
} from './people';
export {
  addAssigneesToRequests,
  addRequestAssignees,
  removeAssigneesFromRequests,
  removeRequestAssignees,
  type RequestAssigneeChange,
} from './assignees';
export {
  allocateRequestNumbers,
  applyRequestTransition,
  applyRequestTransitions,
  findRequestRecord,
  findRequestRecords,
  insertRequest,
  lockRequest,
  touchRequest,
  updateRequest,
  type NewRequest,
  type RequestChanges,
  type RequestRecord,
} from './writes';
