import { makeInterview, ann, bo, dan } from '../testing/fixtures';
import {
  compactNames,
  durationText,
  interviewListState,
  interviewWhen,
  invitationFileName,
  isChangeable,
  meetingLink,
} from './interview-list';

describe('the Interviews tab’s address', () => {
  it('reads the filter and page, ignoring unknown values', () => {
    expect(interviewListState(new URLSearchParams(''))).toEqual({ page: 1, when: 'upcoming' });
    expect(interviewListState(new URLSearchParams('interviewsWhen=past&interviewsPage=3'))).toEqual({
      page: 3,
      when: 'past',
    });
    expect(interviewListState(new URLSearchParams('interviewsWhen=soon&interviewsPage=-2'))).toEqual({
      page: 1,
      when: 'upcoming',
    });
  });
});

describe('how a row reads', () => {
  it('shows when as h:mmA M/D/YYYY in the interview’s own zone, named', () => {
    expect(interviewWhen({ startsAt: '2026-11-30T15:00:00.000Z', timeZone: 'America/New_York' })).toBe(
      '10:00AM 11/30/2026 America/New_York',
    );
    expect(interviewWhen({ startsAt: '2026-07-01T21:05:00.000Z', timeZone: 'America/Los_Angeles' })).toBe(
      '2:05PM 7/1/2026 America/Los_Angeles',
    );
    expect(interviewWhen({ startsAt: '2026-03-02T15:30:00.000Z', timeZone: 'Asia/Tokyo' })).toBe(
      '12:30AM 3/3/2026 Asia/Tokyo',
    );
    expect(interviewWhen({ startsAt: '2026-03-02T03:00:00.000Z', timeZone: 'UTC' })).toBe('3:00AM 3/2/2026 UTC');
    expect(interviewWhen({ startsAt: '2026-03-02T12:45:00.000Z', timeZone: 'UTC' })).toBe('12:45PM 3/2/2026 UTC');
  });

  it('shows durations and people compactly', () => {
    expect([15, 60, 90, 240].map(durationText)).toEqual(['15 min', '1 h', '1 h 30 min', '4 h']);
    expect(compactNames([])).toBe('—');
    expect(compactNames([ann, bo])).toBe('Ann Lee, Bo Lee');
    expect(compactNames([ann, bo, dan])).toBe('Ann Lee, Bo Lee +1');
  });

  it('offers changes only on a scheduled interview that has not started', () => {
    const now = Date.parse('2099-11-30T14:00:00.000Z');
    expect(isChangeable(makeInterview(1), now)).toBe(true);
    expect(isChangeable(makeInterview(1, { status: 'canceled' }), now)).toBe(false);
    expect(isChangeable(makeInterview(1), Date.parse('2099-11-30T15:00:00.000Z'))).toBe(false);
  });

  it('links only web meetings, and names the invitation after the title', () => {
    expect(meetingLink('https://teams.example.com/l/meetup-join/1')).toBe('https://teams.example.com/l/meetup-join/1');
    expect(meetingLink('javascript:alert(1)')).toBeNull();
    expect(meetingLink('not a url')).toBeNull();
    expect(meetingLink(null)).toBeNull();
    expect(invitationFileName('Access review: HR / IT')).toBe('Access review HR IT.ics');
    expect(invitationFileName('***')).toBe('interview.ics');
  });
});
