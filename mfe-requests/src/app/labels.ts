/** How the requests screens name people, colour statuses and mark overdue requests, so a request reads the same on every page. */
import { isRequestOverdue, localDay, type RequestStatus, type RequestUserRef } from '@portal/shared/core/requests';

// One definition for the requests module and Home (mfe-projects): the contract's.
export { REQUEST_OVERDUE_COLOR, REQUEST_PRIORITY_COLORS, REQUEST_STATUS_COLORS } from '@portal/shared/core/requests';

export function personName(user: Pick<RequestUserRef, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** "1 request", "3 requests". */
export const countOf = (n: number, one = 'request', many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The browser's day (YYYY-MM-DD), for overdue marks computed in the page. */
export const localToday = localDay;

/**
 * The "Overdue" mark of a request as the user sees it: past due on the user's own day (the api's
 * `overdue` uses the server's UTC day, which is a day ahead or behind for part of the day).
 */
export function isOverdueLocally(
  request: { dueDate: string | null; status: RequestStatus },
  now = new Date(),
): boolean {
  return isRequestOverdue(request.dueDate, request.status, localToday(now));
}
