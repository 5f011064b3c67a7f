/** Text for the PDF of a report (report-pdf.ts). */

// Text: the built-in fonts encode Windows-1252 (Latin-1 and these); pdfkit writes anything else as garbage.

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Characters without a decomposition to Latin-1 and what reads closest. */
const LOOK_ALIKES: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŧ: 't',
  Ŧ: 'T',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '—',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2190': '<-',
  '\u2192': '->',
  '\u2264': '<=',
  '\u2265': '>=',
};

function encodable(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
}

/**
 * Text Helvetica can draw: line breaks kept, tabs as spaces, other control characters dropped; a
 * character outside Windows-1252 as its letters without accents (ą -> a, ﬁ -> fi, full-width forms),
 * a look-alike (ł -> l, − -> -), or else "?" (Cyrillic, CJK, emoji).
 */
export function pdfText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').replace(/\r\n?/g, '\n')) {
    if (encodable(char) || char === '\n') out += char;
    else if (char === '\t') out += ' ';
    else if (/[\p{Cc}\p{Cf}\p{M}]/u.test(char)) continue;
    else {
      const plain = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += plain && [...plain].every(encodable) ? plain : (LOOK_ALIKES[char] ?? '?');
    }
  }
  return out;
}
