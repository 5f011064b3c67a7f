import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * A calendar invitation (RFC 5545 text, lib/icalendar.ts): sent as the message's text/calendar
   * alternative with this method, and as an .ics attachment named `filename`.
   */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

/** What nodemailer is handed: only the fields of OutgoingMail, whatever else the object carries. */
function message(mail: OutgoingMail) {
  const { to, subject, text, html, icalEvent } = mail;
  return { to, subject, text, html, ...(icalEvent ? { icalEvent: { ...icalEvent } } : {}) };
}

export interface SentMail {
  messageId: string;
  /** The .eml file written in the outbox, when mail goes to files. */
  file: string | null;
}

/** Sends mail; rejects when it could not be handed over (callers decide what the user is told). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL; null: write each message as an .eml file under `outboxDir`. */
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
}

/** `2026-11-21T10-15-30-123Z-<uuid>.eml`: sorts by time, never collides. */
function outboxFileName(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
}

/**
 * Mail through SMTP when configured; otherwise the message is built exactly as it would be sent and
 * written to the outbox folder (development, demos, and tests read it there).
 */
export function createMailer({ smtpUrl, from, outboxDir }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(
      // Bounded waits: a dead mail server fails the request in seconds, not minutes.
      { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
      { from },
    );
    return {
      async send(mail) {
        const info = await transport.sendMail(message(mail));
        return { messageId: info.messageId, file: null };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  return {
    async send(mail) {
      const info = await transport.sendMail(message(mail));
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, outboxFileName(new Date()));
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
