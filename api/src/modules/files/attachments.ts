/** Files sent as downloads (exports, reports, invitations, stored files): their headers. */
import type { FastifyReply } from 'fastify';

/** `attachment` with an ASCII fallback and the exact name in RFC 5987 form. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a generated file (an export, a report, an invitation) as a download the browser neither sniffs
 * nor renders, and no cache keeps.
 */
export function sendAttachment(reply: FastifyReply, body: Buffer | string, contentType: string, fileName: string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}
