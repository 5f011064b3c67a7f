/**
 * Interviews of a project and their participants (issue 7). By concern: records.ts (reading
 * interviews and answering them as the api does), writes.ts (inserting, changing, canceling) and
 * people.ts (who may take part, the form's pickers). This file names what the rest of the api may use.
 */
export { ORGANIZER_ROLES, attendeeIds, interviewPeople, interviewerIds, organizerIds } from './people';
export {
  contactsByIds,
  findInterview,
  listInterviews,
  toInterviews,
  type InterviewContact,
  type InterviewRecord,
} from './records';
export { cancelInterview, insertInterview, updateInterview, type InterviewChanges, type NewInterview } from './writes';
