/**
 * Expiring download links (issue 6): `/api/v1/files/:id/content?v=&u=&e=&s=` where `s` is an HMAC over
 * file id, version id, user id and expiry (seconds since the epoch), compared in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface SignedDownload {
  fileId: string;
  versionId: string;
  userId: string;
  /** Seconds since the epoch. */
  expires: number;
}

/** HMAC-SHA256 over the four values, JSON-encoded so no id can shift into another. */
function signature(secret: string, download: SignedDownload): Buffer {
  return createHmac('sha256', secret)
    .update(JSON.stringify(['file-download', download.fileId, download.versionId, download.userId, download.expires]))
    .digest();
}

export function signedDownloadUrl(secret: string, download: SignedDownload): string {
  const query = new URLSearchParams({
    v: download.versionId,
    u: download.userId,
    e: String(download.expires),
    s: signature(secret, download).toString('base64url'),
  });
  return `/api/v1/files/${encodeURIComponent(download.fileId)}/content?${query.toString()}`;
}

const one = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' && value.length <= 200 ? value : null;

/** 'invalid' for a missing or altered parameter or signature; 'expired' once `nowSeconds` passes `e`. */
export function verifySignedDownload(
  secret: string,
  fileId: string,
  query: Record<string, unknown>,
  nowSeconds: number,
): SignedDownload | 'invalid' | 'expired' {
  const versionId = one(query.v);
  const userId = one(query.u);
  const e = one(query.e);
  const s = one(query.s);
  if (!versionId || !userId || !e || !s || !/^\d{1,12}$/.test(e) || !/^[A-Za-z0-9_-]{43}$/.test(s)) return 'invalid';
  const download: SignedDownload = { fileId, versionId, userId, expires: Number(e) };
  // Compared as text: decoding first would accept other spellings of the same bytes (the last character's spare bits).
  const given = Buffer.from(s, 'latin1');
  const expected = Buffer.from(signature(secret, download).toString('base64url'), 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  // Only a link we signed can be expired: an altered expiry is invalid above.
  if (nowSeconds > download.expires) return 'expired';
  return download;
}

const SECRET_NAME = 'file_url';

/**
 * The secret that signs download links: FILE_URL_SECRET when set, otherwise a random one kept in the
 * database (created by the first instance to ask), so every instance signs and checks alike.
 */
export async function fileUrlSecret(db: Kysely<Database>, configured: string | null): Promise<string> {
  if (configured) return configured;
  const read = () => db.selectFrom('app_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  const existing = await read();
  if (existing) return existing.value;
  await db
    .insertInto('app_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Another instance may have won the race: everyone uses the row that stayed.
  const stored = await read();
  if (!stored) throw new Error('the file URL secret could not be stored');
  return stored.value;
}
