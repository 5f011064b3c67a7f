/**
 * The interviews operations (base /api/v1), each described once (see ../contract.ts): the api
 * registers its routes from them and the web infers its calls' types from them. The rules and the
 * errors, in the order they are checked, are in index.ts.
 */
import { defineOperation } from '../contract';
import { interviewCancelSchema, interviewCreateSchema, interviewUpdateSchema, interviewsQuerySchema } from './index';
import { interview, interviewList, interviewPeople } from './results';

const INTERVIEWS = '/api/v1/projects/:id/interviews';
const INTERVIEW = '/api/v1/projects/:id/interviews/:interviewId';

export const listInterviews = defineOperation({
  method: 'GET',
  url: INTERVIEWS,
  summary: "List a project's interviews",
  tag: 'Interviews',
  policy: { project: 'read' },
  query: interviewsQuerySchema,
  responses: { 200: 'the page of interviews' },
  result: interviewList,
});

export const listInterviewPeople = defineOperation({
  method: 'GET',
  url: '/api/v1/projects/:id/interview-people',
  summary: 'List the people an interview may invite',
  tag: 'Interviews',
  policy: { project: 'read' },
  responses: { 200: 'the candidates of the interview form' },
  result: interviewPeople,
});

export const getInterview = defineOperation({
  method: 'GET',
  url: INTERVIEW,
  summary: 'Get an interview',
  tag: 'Interviews',
  policy: { project: 'read' },
  responses: { 200: 'the interview' },
  result: interview,
});

export const downloadInterviewCalendar = defineOperation({
  method: 'GET',
  url: `${INTERVIEW}/calendar.ics`,
  summary: 'Download an interview as a calendar event',
  tag: 'Interviews',
  policy: { project: 'read' },
  responses: { 200: 'the iCalendar file' },
  produces: ['text/calendar'],
});

/** A staff writer only (project:write and staff; else 403 `user_can_not_update_project`, before the body is read). */
export const createInterview = defineOperation({
  method: 'POST',
  url: INTERVIEWS,
  summary: 'Schedule an interview and invite its people',
  tag: 'Interviews',
  policy: { project: 'write' },
  body: interviewCreateSchema,
  responses: { 201: 'the created interview and the invitations sent' },
  result: interview,
});

/** A staff writer only (as createInterview). */
export const updateInterview = defineOperation({
  method: 'PATCH',
  url: INTERVIEW,
  summary: 'Reschedule an interview or change its people',
  tag: 'Interviews',
  policy: { project: 'write' },
  body: interviewUpdateSchema,
  responses: { 200: 'the updated interview' },
  result: interview,
});

/** A staff writer only (as createInterview). */
export const cancelInterview = defineOperation({
  method: 'POST',
  url: `${INTERVIEW}/cancel`,
  summary: 'Cancel an interview',
  tag: 'Interviews',
  policy: { project: 'write' },
  body: interviewCancelSchema,
  responses: { 200: 'the canceled interview' },
  result: interview,
});
