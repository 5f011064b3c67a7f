/**
 * iCalendar invitations (RFC 5545, with the iTIP methods of RFC 5546), written by hand: one VEVENT
 * per VCALENDAR, times in UTC, text escaped, lines folded at 75 octets, CRLF line ends.
 */

export type CalendarMethod = 'REQUEST' | 'CANCEL';

export interface CalendarPerson {
  name: string;
  email: string;
}

export interface CalendarInvitation {
  method: CalendarMethod;
  /** Stable for the life of the meeting (`interviewUid`): calendars match updates and cancels on it. */
  uid: string;
  /** Raised on every change: a calendar keeps the highest it has seen. */
  sequence: number;
  /** When this version was made (DTSTAMP), ms since the epoch. */
  stamp: number;
  start: number;
  end: number;
  summary: string;
  description?: string | null;
  location?: string | null;
  /** Where the meeting is shown in the portal (URL), when the portal's public address is known. */
  url?: string | null;
  organizer: CalendarPerson | null;
  attendees: CalendarPerson[];
  /** PRODID, e.g. `-//Tevora//Portal//EN`. */
  productId: string;
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;

/** The UID of an interview's invitations: its id at a domain that names no host, so it never changes. */
export function interviewUid(interviewId: string): string {
  return `${interviewId}@portal.invalid`;
}

/** A UTC DATE-TIME (`20261128T150000Z`); seconds kept, milliseconds dropped. */
export function formatUtc(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** TEXT (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`, other control characters dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\p{Cc}/gu, (c) => (c === '\t' ? c : ''));
}

/**
 * A parameter value (e.g. CN): always quoted, so `:`, `;` and `,` need nothing; a double quote cannot be
 * written inside one (RFC 5545 3.2), so it becomes a single quote; control characters are dropped.
 */
export function quoteParam(value: string): string {
  return `"${value.replace(/"/g, "'").replace(/\p{Cc}/gu, '')}"`;
}

/** A mailto: URI for a calendar user; characters an address never holds (controls, spaces, quotes) are dropped. */
function mailto(email: string): string {
  return `mailto:${email.replace(/[\p{Cc}\s"<>]/gu, '')}`;
}

/**
 * A content line folded (RFC 5545 3.1): no line longer than 75 octets of UTF-8, each continuation
 * starting with one space, never splitting a character's bytes.
 */
export function foldLine(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      // The leading space of a continuation counts towards its 75 octets.
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(CRLF);
}

function person(property: 'ORGANIZER' | 'ATTENDEE', who: CalendarPerson): string {
  const params = property === 'ATTENDEE' ? ';ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE' : '';
  return `${property};CN=${quoteParam(who.name)}${params}:${mailto(who.email)}`;
}

/** The whole VCALENDAR text of one invitation (REQUEST) or cancellation (CANCEL). */
export function buildInvitation(invitation: CalendarInvitation): string {
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${invitation.productId.replace(/\p{Cc}/gu, '')}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${invitation.method}`,
    'BEGIN:VEVENT',
    `UID:${invitation.uid}`,
    `SEQUENCE:${invitation.sequence}`,
    `DTSTAMP:${formatUtc(invitation.stamp)}`,
    `DTSTART:${formatUtc(invitation.start)}`,
    `DTEND:${formatUtc(invitation.end)}`,
    `SUMMARY:${escapeText(invitation.summary)}`,
  ];
  if (invitation.description) lines.push(`DESCRIPTION:${escapeText(invitation.description)}`);
  if (invitation.location) lines.push(`LOCATION:${escapeText(invitation.location)}`);
  if (invitation.organizer) lines.push(person('ORGANIZER', invitation.organizer));
  for (const attendee of invitation.attendees) lines.push(person('ATTENDEE', attendee));
  if (invitation.url) lines.push(`URL:${invitation.url.replace(/[\p{Cc}\s]/gu, '')}`);
  lines.push(
    `STATUS:${invitation.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  );
  return lines.map(foldLine).join(CRLF) + CRLF;
}
