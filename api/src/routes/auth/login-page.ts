/** The local sign-in page: self-contained (inline CSS, no external assets), every value escaped. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LoginPageInput {
  brandName: string;
  email?: string;
  error?: string | null;
  /** Which input the error is about, to mark it invalid and focus it. */
  errorField?: 'email' | 'password' | null;
}

export function renderLoginPage({ brandName, email = '', error = null, errorField = null }: LoginPageInput): string {
  const brand = escapeHtml(brandName);
  const invalid = (field: 'email' | 'password') =>
    error && (errorField === field || errorField === null) ? ' aria-invalid="true" aria-describedby="form-error"' : '';
  const autofocus = (field: 'email' | 'password') =>
    (errorField ?? (email ? 'password' : 'email')) === field ? ' autofocus' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in · ${brand} Portal</title>
<style>
  :root { color-scheme: light dark; --accent: #1f5fbf; --danger: #b3261e; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f3f5f8; color: #1b1f24; }
  main { width: 100%; max-width: 24rem; background: #fff; border-radius: 12px; padding: 2rem;
    box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 8px 24px rgba(0,0,0,.06); }
  h1 { margin: 0 0 .25rem; font-size: 1.5rem; }
  p.lead { margin: 0 0 1.5rem; color: #57606a; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input { width: 100%; padding: .625rem .75rem; font: inherit; border: 1px solid #8c959f; border-radius: 8px; background: inherit; color: inherit; }
  input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  input[aria-invalid="true"] { border-color: var(--danger); }
  button { margin-top: 1.5rem; width: 100%; padding: .75rem; font: inherit; font-weight: 600; color: #fff;
    background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; }
  button:hover { filter: brightness(1.1); }
  .error { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: 8px; color: var(--danger);
    background: #fdecea; border: 1px solid #f5c2c0; }
  .error:empty { display: none; }
  @media (prefers-color-scheme: dark) {
    body { background: #0d1117; color: #e6edf3; }
    main { background: #161b22; box-shadow: none; border: 1px solid #30363d; }
    p.lead { color: #9da7b3; }
    .error { background: #3b1614; border-color: #6e2a26; color: #ffb4ab; }
  }
</style>
</head>
<body>
<main>
  <h1>${brand} Portal</h1>
  <p class="lead">Sign in to continue.</p>
  <div id="form-error" class="error" role="alert">${error ? escapeHtml(error) : ''}</div>
  <form method="post" action="/auth/saml/login" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${invalid('email')}${autofocus('email')}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required${invalid('password')}${autofocus('password')}>
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>
`;
}
