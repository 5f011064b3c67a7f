import type { InterviewRecord } from '../../db/interviews';
import { HttpError } from '../../lib/http-error';
import { auditView, checkChangeable, planChange, type InterviewUpdateInput } from './rules';
import { participantIds, whenText } from './state';

const HOUR = 3_600_000;

function record(over: Partial<InterviewRecord> = {}): InterviewRecord {
  const startsAt = Date.now() + 48 * HOUR;
  return {
    id: 'interview-1',
    projectId: 'project-1',
    companyId: 'company-1',
    title: 'Kick-off',
    description: null,
    location: null,
    startsAt,
    endsAt: startsAt + HOUR,
    timeZone: 'America/New_York',
    organizerId: 'org',
    status: 'scheduled',
    sequence: 0,
    onlineMeetingUrl: null,
    graphEventId: null,
    graphSubscriptionId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    canceledAt: null,
    interviewerIds: ['a', 'b'],
    attendeeIds: ['c'],
    ...over,
  };
}

/** A PATCH body: what is not given stays as it is. */
const change = (input: Partial<InterviewUpdateInput>): InterviewUpdateInput => ({
  description: undefined,
  location: undefined,
  ...input,
});

const project = { id: 'project-1', companyId: 'company-1', title: 'Project', status: 'active' };

function thrown(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('planChange', () => {
  it('finds nothing changed when the input repeats the interview', () => {
    const current = record();
    const plan = planChange(current, change({ title: current.title, interviewerIds: ['b', 'a'] }));
    expect(plan.changed).toEqual([]);
    expect(plan.before).toEqual({});
    expect(plan.after).toEqual({});
  });

  it('audits only the fields that differ and checks only the people newly named', () => {
    const current = record();
    const plan = planChange(
      current,
      change({
        title: 'Walkthrough',
        interviewerIds: ['d', 'a', 'd'],
        attendeeIds: ['c', 'a'],
      }),
    );
    expect(plan.changed).toEqual(['title', 'interviewerIds']);
    expect(plan.before).toEqual({ title: 'Kick-off', interviewerIds: ['a', 'b'] });
    expect(plan.after).toEqual({ title: 'Walkthrough', interviewerIds: ['a', 'd'] });
    // An interviewer is not an attendee too; people kept as they were are not checked again.
    expect(plan.next.attendeeIds).toEqual(['c']);
    expect(plan.given).toEqual({ organizerId: undefined, interviewerIds: ['d'], attendeeIds: [] });
  });

  it('names a new organizer only when it differs', () => {
    expect(planChange(record(), change({ organizerId: 'org' })).given.organizerId).toBeUndefined();
    expect(planChange(record(), change({ organizerId: 'other' })).given.organizerId).toBe('other');
  });

  it('refuses a time the rules refuse with 400 and the field', () => {
    const error = thrown(() => planChange(record(), change({ timeZone: 'Not/AZone' })));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('invalid_meeting_argument');
    expect(error.details).toEqual([{ field: 'timeZone', message: error.message }]);
  });
});

describe('checkChangeable', () => {
  it('refuses, in this order, a canceled project, a canceled interview and one that has started', () => {
    const canceled = record({ status: 'canceled', startsAt: Date.now() - HOUR });
    expect(thrown(() => checkChangeable({ ...project, status: 'canceled' }, canceled)).code).toBe(
      'project_is_canceled',
    );
    expect(thrown(() => checkChangeable(project, canceled)).code).toBe('interview_is_canceled');
    expect(thrown(() => checkChangeable(project, record({ startsAt: Date.now() - HOUR }))).code).toBe(
      'interview_is_over',
    );
    expect(() => checkChangeable(project, record())).not.toThrow();
  });
});

describe('what the notices and the audit are made of', () => {
  it('lists each participant once, the organizer first', () => {
    expect(participantIds({ organizerId: 'a', interviewerIds: ['a', 'b'], attendeeIds: ['c', 'b'] })).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(participantIds({ organizerId: null, interviewerIds: ['b'], attendeeIds: [] })).toEqual(['b']);
  });

  it('writes the time in the interview zone', () => {
    const start = Date.parse('2026-12-01T15:00:00Z');
    expect(whenText(start, start + HOUR, 'America/New_York')).toBe(
      'Tuesday, December 1, 2026, 10:00 AM – 11:00 AM (America/New_York)',
    );
  });

  it('audits the times as ISO strings', () => {
    const r = record({ startsAt: Date.parse('2026-12-01T15:00:00Z'), endsAt: Date.parse('2026-12-01T16:00:00Z') });
    expect(auditView(r)).toMatchObject({ startsAt: '2026-12-01T15:00:00.000Z', endsAt: '2026-12-01T16:00:00.000Z' });
  });
});
