import {
  buildInvitation,
  escapeText,
  foldLine,
  formatUtc,
  interviewUid,
  quoteParam,
  type CalendarInvitation,
} from './icalendar';

/** The logical lines of a calendar text: folds undone (RFC 5545 3.1). */
const unfold = (text: string) => text.replace(/\r\n /g, '').split('\r\n');

const invitation: CalendarInvitation = {
  method: 'REQUEST',
  uid: interviewUid('0b8a0c52-6a43-4c0e-9d1e-7a1b2f3c4d5e'),
  sequence: 2,
  stamp: Date.UTC(2026, 10, 20, 9, 30, 15, 123),
  start: Date.UTC(2026, 10, 24, 15, 0),
  end: Date.UTC(2026, 10, 24, 16, 0),
  summary: 'Walkthrough; access, change',
  description: 'Line one\nLine two, with a \\ backslash',
  location: 'Room 4; floor 2',
  url: 'https://portal.example.com/v2/projects/p1?view=interviews',
  organizer: { name: 'Daniel "Dan" Reyes', email: 'consultant@demo.test' },
  attendees: [
    { name: 'Laura Chen', email: 'lead@acme.test' },
    { name: 'Reyes, Daniel: Jr', email: 'nina.patel@demo.test' },
  ],
  productId: '-//Acme//Portal//EN',
};

describe('escapeText', () => {
  it('escapes backslash, semicolon and comma and writes line breaks as \\n', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('drops control characters that TEXT cannot hold but keeps tabs', () => {
    expect(escapeText('a\u0000b\u0007c\td')).toBe('abc\td');
  });
});

describe('quoteParam', () => {
  it('quotes the value so : ; , need nothing, and turns a double quote into a single one', () => {
    expect(quoteParam('Reyes, Daniel: "Dan"; Jr')).toBe(`"Reyes, Daniel: 'Dan'; Jr"`);
  });
});

describe('foldLine', () => {
  it('leaves a line of 75 octets as it is', () => {
    const line = 'x'.repeat(75);
    expect(foldLine(line)).toBe(line);
  });

  it('folds longer lines so no line exceeds 75 octets, continuations starting with a space', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(20)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBe(3);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });

  it('never splits the bytes of a multi-byte character', () => {
    // 2-, 3- and 4-byte characters, so a fold falls inside one unless it is avoided.
    const line = `SUMMARY:${'é€😀'.repeat(30)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
      // A split character would not survive a round trip through UTF-8.
      expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      expect(part).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });
});

describe('buildInvitation', () => {
  it('writes one VEVENT with UTC times, escaped text, people and CRLF line ends', () => {
    const text = buildInvitation(invitation);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const lines = unfold(text);
    expect(lines.slice(0, 6)).toEqual([
      'BEGIN:VCALENDAR',
      'PRODID:-//Acme//Portal//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        'UID:0b8a0c52-6a43-4c0e-9d1e-7a1b2f3c4d5e@portal.invalid',
        'SEQUENCE:2',
        'DTSTAMP:20261120T093015Z',
        'DTSTART:20261124T150000Z',
        'DTEND:20261124T160000Z',
        'SUMMARY:Walkthrough\\; access\\, change',
        'DESCRIPTION:Line one\\nLine two\\, with a \\\\ backslash',
        'LOCATION:Room 4\\; floor 2',
        `ORGANIZER;CN="Daniel 'Dan' Reyes":mailto:consultant@demo.test`,
        'ATTENDEE;CN="Laura Chen";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:lead@acme.test',
        'ATTENDEE;CN="Reyes, Daniel: Jr";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:nina.patel@demo.test',
        'URL:https://portal.example.com/v2/projects/p1?view=interviews',
        'STATUS:CONFIRMED',
      ]),
    );
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.slice(-3)).toEqual(['END:VEVENT', 'END:VCALENDAR', '']);
  });

  it('writes a cancellation with METHOD:CANCEL and STATUS:CANCELLED, and leaves out what is not set', () => {
    const lines = unfold(
      buildInvitation({ ...invitation, method: 'CANCEL', sequence: 3, description: null, location: '', url: null }),
    );
    expect(lines).toContain('METHOD:CANCEL');
    expect(lines).toContain('STATUS:CANCELLED');
    expect(lines).toContain('SEQUENCE:3');
    expect(lines).not.toContain('STATUS:CONFIRMED');
    expect(lines.some((l) => /^(DESCRIPTION|LOCATION|URL)[:;]/.test(l))).toBe(false);
  });

  it('cannot be made to start a property of its own through a field', () => {
    const lines = unfold(
      buildInvitation({ ...invitation, summary: 'x\r\nMETHOD:CANCEL', location: 'y\nEND:VCALENDAR' }),
    );
    expect(lines.filter((l) => l.startsWith('METHOD:'))).toEqual(['METHOD:REQUEST']);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
  });
});

describe('formatUtc', () => {
  it('writes a UTC date-time without milliseconds', () => {
    expect(formatUtc(Date.UTC(2027, 0, 5, 7, 8, 9, 999))).toBe('20270105T070809Z');
  });
});
