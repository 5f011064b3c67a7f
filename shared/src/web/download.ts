/**
 * The browser side of a download: the api serves stored files only through a short-lived signed
 * link, and the browser fetches that link as an attachment. Loaded with the screens that download,
 * never on the shell's first page.
 */

/** Lets the browser fetch a signed link (GET /files/:id/signed-url's reply) as an attachment named `name`. */
export function startDownload(signed: { url: string; name: string }): void {
  const link = document.createElement('a');
  link.href = signed.url;
  link.download = signed.name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
