/** Where sign-in starts and ends for the web. */

export const SIGN_IN_URL = '/auth/saml/login';
export const SIGN_OUT_URL = '/auth/saml/logout';
export const TO_URL_COOKIE = 'toUrl';
export const TO_URL_SECONDS = 300;
export const COMPANY_COOKIE = 'pe_company_id';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax`;
}

/** Full page loads away from the portal, in one place (tests watch it: jsdom cannot navigate). */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  /** A top-level form POST: the browser sends its Origin, the server's proof that this page asked. */
  post(url: string): void {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = url;
    form.hidden = true;
    document.body.appendChild(form);
    form.submit();
  },
};

/** Remembers the address for 300 s and goes to sign-in; the server brings the user back there. */
export function redirectToSignIn(location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location): void {
  writeCookie(TO_URL_COOKIE, `${location.pathname}${location.search}${location.hash}`, TO_URL_SECONDS);
  browserLocation.assign(SIGN_IN_URL);
}

/**
 * Logout clears the user, the logged-in flag and session storage, then goes to the sign-out address
 * with a POST (a GET there only asks for confirmation, so another site cannot sign the user out).
 */
export function signOut(clearState: () => void): void {
  clearState();
  window.sessionStorage.clear();
  browserLocation.post(SIGN_OUT_URL);
}

/** The remembered company if the user still belongs to it, else the first. */
export function chooseCompany(companyIds: string[], remembered: string | null): string | null {
  if (remembered && companyIds.includes(remembered)) return remembered;
  return companyIds[0] ?? null;
}
