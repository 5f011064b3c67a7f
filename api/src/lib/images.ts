import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import {
  IMAGE_MAX_BYTES,
  IMAGE_RULE,
  IMAGE_SIZE_RULE,
  sniffImageType,
  type ImageType,
} from '@portal/shared/core/settings';
import { writeFileAtomic } from './disk';
import { HttpError } from './http-error';
import type { UploadedFile } from './multipart';

/** Avatars and logos: small images under DATA_DIR/images, named by a random key, never by the upload's name. */
const EXTENSIONS: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const TYPES_BY_EXTENSION = Object.fromEntries(Object.entries(EXTENSIONS).map(([t, e]) => [e, t])) as Record<
  string,
  ImageType
>;
const KEY_PATTERN = /^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/;

/** The file-field rule of readForm for an image field. */
export const IMAGE_FIELD = { maxBytes: IMAGE_MAX_BYTES, sizeRule: IMAGE_SIZE_RULE };

function imagesDir(dataDir: string): string {
  return path.join(dataDir, 'images');
}

/** The uploaded image's checked type: its bytes must be an image we accept, whatever its name says. */
export function checkImage(file: UploadedFile): ImageType {
  if (file.buffer.length === 0) {
    throw new HttpError(400, 'validation_failed', `Invalid field: ${file.field}`, [
      { field: file.field, message: `${file.field} is empty` },
    ]);
  }
  if (file.buffer.length > IMAGE_MAX_BYTES) {
    throw new HttpError(400, 'validation_failed', `Invalid field: ${file.field}`, [
      { field: file.field, message: `${file.field} ${IMAGE_SIZE_RULE}` },
    ]);
  }
  const type = sniffImageType(file.buffer.subarray(0, 16));
  if (!type) {
    throw new HttpError(400, 'validation_failed', `Invalid field: ${file.field}`, [
      { field: file.field, message: `${file.field} ${IMAGE_RULE}` },
    ]);
  }
  return type;
}

/** Writes to a temporary name, then renames into place: a crash never leaves a half-written image under its key. */
export async function saveImage(dataDir: string, buffer: Buffer, type: ImageType): Promise<string> {
  const key = `${randomUUID()}.${EXTENSIONS[type]}`;
  await writeFileAtomic(imagesDir(dataDir), key, buffer);
  return key;
}

/** Removes a stored image; a missing one is not an error. */
export async function deleteImage(dataDir: string, key: string | null): Promise<void> {
  if (!key || !KEY_PATTERN.test(key)) return;
  await fs.promises.rm(path.join(imagesDir(dataDir), key), { force: true });
}

/** Serves a stored image: its checked type, never sniffed by the browser, private to the signed-in user. */
export async function sendImage(reply: FastifyReply, dataDir: string, key: string | null): Promise<FastifyReply> {
  if (!key || !KEY_PATTERN.test(key)) throw new HttpError(404, 'not_found', 'No image.');
  const file = path.join(imagesDir(dataDir), key);
  let data: Buffer;
  try {
    data = await fs.promises.readFile(file);
  } catch {
    throw new HttpError(404, 'not_found', 'No image.');
  }
  return reply
    .header('content-type', TYPES_BY_EXTENSION[key.split('.').pop()!])
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=86400, immutable')
    .send(data);
}

/** The URL the web shows for a stored image (the key in the query busts caches when it changes). */
export function imageUrl(kind: 'users' | 'companies', id: string, key: string | null): string | null {
  if (!key) return null;
  const what = kind === 'users' ? 'avatar' : 'logo';
  return `/api/v1/${kind}/${encodeURIComponent(id)}/${what}?v=${encodeURIComponent(key.split('.')[0])}`;
}
