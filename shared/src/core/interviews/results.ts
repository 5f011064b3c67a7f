/**
 * What the interviews operations answer, as zod schemas: the api serializes its answers with them,
 * the OpenAPI document shows them and the web's types are inferred from them (index.ts).
 */
import { z } from 'zod';
import { count, day, id, page, timestamp } from '../answers';

export const interviewPerson = z.strictObject({ id, firstName: z.string(), lastName: z.string(), email: z.string() });

export const interview = z.strictObject({
  id,
  projectId: id,
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  status: z.enum(['scheduled', 'canceled']),
  /** UTC instants (ISO 8601). */
  startsAt: timestamp,
  endsAt: timestamp,
  /** As scheduled: local date, time and zone. */
  date: day,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:mm'),
  timeZone: z.string().min(1),
  durationMinutes: count,
  organizer: interviewPerson.nullable(),
  interviewers: z.array(interviewPerson),
  attendees: z.array(interviewPerson),
  onlineMeetingUrl: z.string().nullable(),
  /**
   * Invitations of the last change (absent on reads): handed to the mailer, failed, and `pending`: still
   * being sent when the reply went out (a slow mail server is not waited for more than about ten
   * seconds; those mails carry on in the background). `pending` is absent when nothing is pending.
   */
  invitations: z.strictObject({ sent: count, failed: count, pending: count.optional() }).optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
  canceledAt: timestamp.nullable(),
});

export const interviewList = z.strictObject({ results: z.array(interview), ...page });

export const interviewPeople = z.strictObject({
  /** Lead Consultants and Consultants of the project. */
  organizers: z.array(interviewPerson),
  /** Active staff (not auditors, unless they hold a role on the project). */
  interviewers: z.array(interviewPerson),
  /** Active users of the project's roster and company. */
  attendees: z.array(interviewPerson),
});
