/** The pages under /auth: self-contained (inline CSS, no external assets, no script), every value escaped. */
import { escapeHtml } from '../../lib/html';

export { escapeHtml };

export interface AuthPageInput {
  brandName: string;
  /** The document title before "· {brand} Portal". */
  title: string;
  /** The page's own heading under the brand, when it is not the sign-in page itself. */
  heading?: string;
  /** A line of plain text under the heading. */
  lead?: string;
  /** Shown in the alert area (role="alert", announced at once). */
  error?: string | null;
  /** Shown in a status area (role="status"): confirmations. */
  notice?: string | null;
  /** Trusted markup: the form and links, built with `escapeHtml` for every value. */
  body: string;
}

const STYLE = `
  :root { color-scheme: light dark; --accent: #1f5fbf; --danger: #b3261e; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f3f5f8; color: #1b1f24; }
  main { width: 100%; max-width: 24rem; background: #fff; border-radius: 12px; padding: 2rem;
    box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 8px 24px rgba(0,0,0,.06); }
  h1 { margin: 0 0 .25rem; font-size: 1.5rem; }
  h2 { margin: .5rem 0 .25rem; font-size: 1.125rem; }
  p.lead { margin: 0 0 1.5rem; color: #57606a; }
  p.aside { margin: .5rem 0 0; font-size: .9375rem; }
  p.hint { margin: .25rem 0 0; font-size: .875rem; color: #57606a; }
  a { color: var(--accent); }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input { width: 100%; padding: .625rem .75rem; font: inherit; border: 1px solid #8c959f; border-radius: 8px; background: inherit; color: inherit; }
  input[readonly] { background: rgba(127,127,127,.08); }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  input[aria-invalid="true"] { border-color: var(--danger); }
  button { margin-top: 1.5rem; width: 100%; padding: .75rem; font: inherit; font-weight: 600; color: #fff;
    background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; }
  button:hover { filter: brightness(1.1); }
  .error, .notice { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: 8px; }
  .error { color: var(--danger); background: #fdecea; border: 1px solid #f5c2c0; }
  .notice { color: #0f5132; background: #e8f5ee; border: 1px solid #b7dfc8; }
  .error:empty, .notice:empty { display: none; }
  @media (prefers-color-scheme: dark) {
    body { background: #0d1117; color: #e6edf3; }
    main { background: #161b22; box-shadow: none; border: 1px solid #30363d; }
    p.lead, p.hint { color: #9da7b3; }
    a { color: #79b8ff; }
    .error { background: #3b1614; border-color: #6e2a26; color: #ffb4ab; }
    .notice { background: #0f2a1d; border-color: #245c3c; color: #a6e3bf; }
  }
`;

/** The frame every /auth page shares: brand, heading, the alert and status areas, then the body. */
export function renderAuthPage({
  brandName,
  title,
  heading,
  lead,
  error = null,
  notice = null,
  body,
}: AuthPageInput): string {
  const brand = escapeHtml(brandName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · ${brand} Portal</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <h1>${brand} Portal</h1>
  ${heading ? `<h2>${escapeHtml(heading)}</h2>\n  ` : ''}${lead ? `<p class="lead">${escapeHtml(lead)}</p>` : ''}
  <div id="form-error" class="error" role="alert">${error ? escapeHtml(error) : ''}</div>
  <div id="form-notice" class="notice" role="status">${notice ? escapeHtml(notice) : ''}</div>
${body}
</main>
</body>
</html>
`;
}

/** Attributes of an input the error is about: marked invalid and described by the alert. */
export function invalidAttributes(error: string | null | undefined, isAbout: boolean): string {
  return error && isAbout ? ' aria-invalid="true" aria-describedby="form-error"' : '';
}

export const LOGIN_PATH = '/auth/saml/login';
export const FORGOT_PASSWORD_PATH = '/auth/forgot-password';

export interface LoginPageInput {
  brandName: string;
  /** `email`: step 1 (Email, Continue); `password`: step 2 (the email kept, Password, Sign in). */
  step?: 'email' | 'password';
  email?: string;
  error?: string | null;
  /** Which input the error is about, to mark it invalid and focus it; null: the whole form. */
  errorField?: 'email' | 'password' | null;
  notice?: string | null;
}

/** Identifier-first sign-in: the email decides where the user signs in (SSO or password). */
export function renderLoginPage({
  brandName,
  step = 'email',
  email = '',
  error = null,
  errorField = null,
  notice = null,
}: LoginPageInput): string {
  const about = (field: 'email' | 'password') => errorField === field || errorField === null;
  const emailInput = (extra: string) =>
    `<input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escapeHtml(email)}"${extra}>`;
  const body =
    step === 'email'
      ? `  <form method="post" action="${LOGIN_PATH}" novalidate>
    <label for="email">Email</label>
    ${emailInput(`${invalidAttributes(error, about('email'))} autofocus`)}
    <button type="submit">Continue</button>
  </form>`
      : `  <form method="post" action="${LOGIN_PATH}" novalidate>
    <input type="hidden" name="step" value="password">
    <label for="email">Email</label>
    ${emailInput(` readonly${invalidAttributes(error, errorField === 'email')}${errorField === 'email' ? ' autofocus' : ''}`)}
    <p class="aside"><a href="${LOGIN_PATH}">Use another email</a></p>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${invalidAttributes(error, about('password'))}${errorField === 'email' ? '' : ' autofocus'}>
    <button type="submit">Sign in</button>
    <p class="aside"><a href="${FORGOT_PASSWORD_PATH}">Forgot password?</a></p>
  </form>`;
  return renderAuthPage({ brandName, title: 'Sign in', lead: 'Sign in to continue.', error, notice, body });
}
