/**
 * What the sign-in pages and the SAML sign-in share: the cookie holding the address to return to,
 * the check that keeps that address on this origin, and how a posted form reaches its handler.
 */

export const TO_URL_COOKIE = 'toUrl';

/** The return address the shell remembered, if it is a path on this origin (no open redirect). */
export function safeReturnPath(value: string | undefined): string {
  if (!value || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Browsers drop tabs and newlines in URLs: `/\t/evil` would become `//evil`.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f' || c === '\\')) return '/';
  try {
    const resolved = new URL(value, 'http://portal.invalid');
    if (resolved.origin !== 'http://portal.invalid') return '/';
  } catch {
    return '/';
  }
  return value;
}

/**
 * The pages' form posts are registered with `attachValidation`: a form their operation's schema
 * refuses still reaches the handler, which shows the problem on the page again (HTML), not as JSON.
 */
export const FORM_PAGE = { attachValidation: true } as const;

/**
 * The string fields of a form (or JSON) body as posted, whether or not its schema accepted it
 * (then `request.body` is the raw body); anything else is treated as absent.
 */
export function formFields(request: { body?: unknown }): Record<string, string> {
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
