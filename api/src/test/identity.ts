/** Test helpers for sign-in and passwords: users with a known password, the mail outbox, form posts. */
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { addCompanyMember } from '../db/companies';
import { insertUser, type NewUser } from '../db/users';
import { hashPassword } from '../lib/passwords';
import type { TestApp } from './app';

let counter = 0;

/** A new active user with `password`, member of the named companies (role member unless given). */
export async function createUserWithPassword(
  t: TestApp,
  password: string,
  options: Partial<NewUser> & { companies?: string[]; companyRole?: 'admin' | 'member' } = {},
): Promise<{ id: string; email: string }> {
  counter += 1;
  const email = options.email ?? `user${counter}-${Date.now()}@example.test`;
  const { companies = [], companyRole = 'member', ...rest } = options;
  const id = await insertUser(t.database.db, {
    firstName: 'Test',
    lastName: `User ${counter}`,
    ...rest,
    email,
    passwordHash: await hashPassword(password),
  });
  for (const name of companies) {
    const company = await t.database.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    await addCompanyMember(t.database.db, company.id, id, companyRole);
  }
  return { id, email };
}

export function companyId(t: TestApp, name: string): Promise<string> {
  return t.database.db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
    .then((row) => row.id);
}

/** A browser form post to an /auth page. */
export function postForm(
  t: TestApp,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return t.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export function setCookies(res: LightMyRequestResponse): string[] {
  const header = res.headers['set-cookie'];
  return header === undefined ? [] : [header].flat();
}

/** The new session token the reply set, or null. */
export function sessionTokenOf(res: LightMyRequestResponse): string | null {
  const line = setCookies(res).find((c) => c.startsWith('pe_session_token=') && !c.startsWith('pe_session_token=;'));
  return line ? line.split(';')[0].slice('pe_session_token='.length) : null;
}

/** The hidden token of a "Choose a new password" page. */
export function hiddenToken(html: string): string {
  const match = /name="token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no token field on the page');
  return match[1];
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The decoded text part. */
  text: string;
  raw: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The text part of a message nodemailer built (quoted-printable, base64 or plain). */
function textPart(raw: string): string {
  const match =
    /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*?Content-Transfer-Encoding: ([^\n]+)\n\n([\s\S]*?)(?:\n--|$)/i.exec(
      raw,
    );
  if (!match) return raw;
  const [, encoding, body] = match;
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(body);
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The messages written to `DATA_DIR/outbox`, oldest first. */
export function readOutbox(t: TestApp): OutboxMail[] {
  const dir = path.join(t.config.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const raw = fs.readFileSync(file, 'utf8');
      return {
        file,
        to: /^To: (.+)$/m.exec(raw)?.[1] ?? '',
        subject: /^Subject: (.+)$/m.exec(raw)?.[1] ?? '',
        text: textPart(raw),
        raw,
      };
    });
}

export function clearOutbox(t: TestApp): void {
  fs.rmSync(path.join(t.config.dataDir, 'outbox'), { recursive: true, force: true });
}

/** The reset token of the last link mailed to `email`. */
export function lastResetToken(t: TestApp, email: string): string {
  const mail = readOutbox(t)
    .filter((m) => m.to.includes(email))
    .pop();
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /\/auth\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no reset link in the mail to ${email}`);
  return match[1];
}
