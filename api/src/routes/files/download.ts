import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signedUrlQuerySchema, type SignedUrl } from '@portal/shared/core/files';
import { resolveFile } from '../../lib/file-kinds';
import { HttpError, validationError } from '../../lib/http-error';
import { fileUrlSecret, signedDownloadUrl, verifySignedDownload } from '../../lib/signed-urls';
import { requireAuth } from '../../plugins/auth';

const paramsSchema = z.object({ id: z.string().min(1, 'id is required').max(100, 'id is too long') });

const fileNotFound = () => new HttpError(404, 'file_not_found');

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

function fileId(request: FastifyRequest): string {
  const parsed = paramsSchema.safeParse(request.params);
  if (!parsed.success) throw validationError(parsed.error, 'path parameter');
  return parsed.data.id;
}

/**
 * Downloads of every kind of stored file (issue 6): access is checked when a link is signed and again
 * when it is used; the bytes go out as an attachment the browser will neither sniff nor run.
 */
export default async function fileDownloadRoutes(app: FastifyInstance) {
  let secret: Promise<string> | null = null;
  const signingSecret = () => {
    secret ??= fileUrlSecret(app.db, app.config.fileUrlSecret).catch((error: unknown) => {
      secret = null;
      throw error;
    });
    return secret;
  };

  app.get('/api/v1/files/:id/signed-url', { config: { policy: 'signedIn' } }, async (request, reply) => {
    const auth = await requireAuth(request);
    const id = fileId(request);
    const query = signedUrlQuerySchema.safeParse(request.query ?? {});
    if (!query.success) throw validationError(query.error, 'query parameter');
    const target = await resolveFile(app.fileKinds, {
      request,
      auth,
      fileId: id,
      versionId: query.data.versionId,
      phase: 'sign',
    });
    if (!target) throw fileNotFound();
    const expires = Math.floor(Date.now() / 1000) + app.config.signedUrlTtlSeconds;
    const body: SignedUrl = {
      url: signedDownloadUrl(await signingSecret(), {
        fileId: id,
        versionId: target.versionId,
        userId: auth.user.id,
        expires,
      }),
      expiresAt: new Date(expires * 1000).toISOString(),
      name: target.name,
    };
    return reply.header('cache-control', 'no-store').send(body);
  });

  // GET only: a HEAD would count as a download without taking the bytes.
  app.get(
    '/api/v1/files/:id/content',
    { exposeHeadRoute: false, config: { policy: 'signedIn' } },
    async (request, reply) => {
      const auth = await requireAuth(request);
      const id = fileId(request);
      // Whoever may not see the file learns nothing else about it, whatever the link says: 404.
      const current = await resolveFile(app.fileKinds, { request, auth, fileId: id, phase: 'download' });
      if (!current) throw fileNotFound();
      const signed = verifySignedDownload(
        await signingSecret(),
        id,
        (request.query ?? {}) as Record<string, unknown>,
        Math.floor(Date.now() / 1000),
      );
      if (signed === 'invalid') throw new HttpError(403, 'signed_url_invalid');
      if (signed === 'expired') throw new HttpError(403, 'signed_url_expired');
      // A link works only for the user it was signed for: a forwarded link is worth nothing.
      if (signed.userId !== auth.user.id) throw new HttpError(403, 'signed_url_invalid');
      const target =
        current.versionId === signed.versionId
          ? current
          : await resolveFile(app.fileKinds, {
              request,
              auth,
              fileId: id,
              versionId: signed.versionId,
              phase: 'download',
            });
      if (!target) throw fileNotFound();
      if (target.versionId !== signed.versionId) throw new HttpError(404, 'file_version_not_found');
      const stream = await app.storage.open(target.storageKey);
      if (!stream) throw fileNotFound();
      try {
        await target.onDownload?.();
      } catch (error) {
        stream.destroy();
        throw error;
      }
      return reply
        .header('content-type', target.contentType)
        .header('content-length', String(target.size))
        .header('content-disposition', attachmentDisposition(target.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .header('cross-origin-resource-policy', 'same-origin')
        .header('referrer-policy', 'no-referrer')
        .send(stream);
    },
  );
}
