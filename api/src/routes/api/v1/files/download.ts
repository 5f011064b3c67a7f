import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '@portal/shared/core/files/api';
import { resolveFile, type DownloadTarget } from '../../../../lib/file-kinds';
import { HttpError } from '../../../../lib/http-error';
import {
  fileUrlSecret,
  signedDownloadUrl,
  verifySignedDownload,
  type SignedDownload,
} from '../../../../lib/signed-urls';
import { requireAuth } from '../../../../plugins/app/auth';
import { paramsSchema, route } from '../../../../lib/contract';
import { attachmentDisposition } from '../../../../modules/files/attachments';

const fileNotFound = () => new HttpError(404, 'file_not_found');

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

  route(app, api.getSignedUrl, async (request, reply) => {
    const auth = await requireAuth(request);
    const { id } = request.params;
    const target = await resolveFile(app.fileKinds, {
      request,
      auth,
      fileId: id,
      versionId: request.query.versionId,
      phase: 'sign',
    });
    if (!target) throw fileNotFound();
    const expires = Math.floor(Date.now() / 1000) + app.config.signedUrlTtlSeconds;
    reply.header('cache-control', 'no-store');
    return {
      url: signedDownloadUrl(await signingSecret(), {
        fileId: id,
        versionId: target.versionId,
        userId: auth.user.id,
        expires,
      }),
      expiresAt: new Date(expires * 1000).toISOString(),
      name: target.name,
    };
  });

  /** What the download's preValidation found: the file as the caller now sees it, and the link it checked. */
  const checked = new WeakMap<FastifyRequest, { current: DownloadTarget; signed: SignedDownload }>();
  const downloadParams = paramsSchema(api.downloadFile);

  /**
   * The file and its link are checked before the query's shape, in this order: whoever may not see the
   * file learns nothing else about it, whatever the link says (404); a link missing a part, altered,
   * expired or signed for someone else is refused with its own 403, never a 400. Once it passes, the
   * query is one the operation's schema accepts.
   */
  async function checkLink(request: FastifyRequest): Promise<void> {
    // A path parameter out of its rules answers its 400: the validation that comes next says so.
    const params = downloadParams.safeParse(request.params);
    if (!params.success) return;
    const auth = await requireAuth(request);
    const id = (params.data as { id: string }).id;
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
    checked.set(request, { current, signed });
  }

  route(
    app,
    api.downloadFile,
    async (request, reply) => {
      const auth = await requireAuth(request);
      const { id } = request.params;
      const found = checked.get(request);
      if (!found) throw new Error('the download link was not checked');
      const { current, signed } = found;
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
    // GET only: a HEAD would count as a download without taking the bytes.
    { exposeHeadRoute: false, preValidation: checkLink },
  );
}
