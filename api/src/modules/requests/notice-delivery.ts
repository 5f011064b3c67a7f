/**
 * Sending the notices of evidence requests (issue 8) once their change commits: the bells refreshed
 * and the mails sent in the background, waited for a while when the app closes. Contract:
 * shared/src/core/requests ("Notifications").
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { mailBody } from '../../lib/password-reset';
import type { OutgoingMail } from '../../lib/mailer';

/** One mail to send once the change commits; the link becomes `<PUBLIC_URL><path>` when PUBLIC_URL is set. */
export interface RequestMail {
  to: string;
  subject: string;
  body: string;
  /** `/requests/<id>` */
  path: string;
}

/** What a change queued: bells to refresh and mails to send once its transaction commits. */
export interface PendingNotices {
  userIds: string[];
  mails: RequestMail[];
}

export const noPendingNotices = (): PendingNotices => ({ userIds: [], mails: [] });

/** Several changes' notices as one. */
export function mergePendingNotices(...all: PendingNotices[]): PendingNotices {
  return { userIds: [...new Set(all.flatMap((p) => p.userIds))], mails: all.flatMap((p) => p.mails) };
}

/** Mails of one delivery go out this many at a time. */
const MAIL_CONCURRENCY = 4;

/** The mail of a notice: its text, then the link (only with PUBLIC_URL: a link taken from a request's Host could point anywhere). */
export function requestMailMessage(mail: RequestMail, publicUrl: string | null): OutgoingMail {
  const lines = [mail.body, publicUrl ? `Open it: ${publicUrl}${mail.path}` : ''].filter(Boolean);
  return { to: mail.to, subject: mail.subject, text: lines.join('\n\n'), html: mailBody(lines).html };
}

/** Runs `work` on each item, `concurrency` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
}

/** How long closing the app waits for notices still going out (and for a reminder sweep under way). */
export const REQUEST_CLOSE_WAIT_MS = 5_000;

/**
 * The deliveries under way, per app. Keyed by the app's HTTP server: every encapsulated plugin of one
 * app is its own FastifyInstance object, but they all share that server.
 */
const deliveries = new WeakMap<object, Set<Promise<void>>>();

function trackDelivery(app: FastifyInstance, delivery: Promise<void>): void {
  let running = deliveries.get(app.server);
  if (!running) {
    running = new Set();
    deliveries.set(app.server, running);
  }
  running.add(delivery);
  const done = () => running.delete(delivery);
  delivery.then(done, done);
}

/** Waits for `work` at most `ms` milliseconds (a timer that holds nothing open); true when it settled. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For the app's onClose (modules/requests/reminders.ts registers it): waits for the notices still going
 * out, at most `ms` milliseconds, so a slow mail server neither loses a mail a moment from leaving nor
 * holds the shutdown. What is still under way then is logged and left.
 */
export async function closeRequestDeliveries(app: FastifyInstance, ms = REQUEST_CLOSE_WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  const running = deliveries.get(app.server);
  // Deliveries a finishing one started (a sweep's next batch) are waited for too, within the same time.
  while (running && running.size > 0) {
    if (!(await settledWithin(Promise.all(running), deadline - Date.now()))) {
      app.log.warn({ deliveries: running.size }, 'request notices were still going out when the app closed');
      return;
    }
  }
}

/**
 * After the commit: refreshes the bells and sends the mails in the background (bounded concurrency;
 * failures logged, never thrown). Routes do not await it; tests may. Closing the app waits for it a
 * while (closeRequestDeliveries).
 */
export function deliverRequestNotices(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  pending: PendingNotices,
): Promise<void> {
  const delivery = deliver(app, log, pending);
  trackDelivery(app, delivery);
  return delivery;
}

async function deliver(app: FastifyInstance, log: FastifyBaseLogger, pending: PendingNotices): Promise<void> {
  try {
    const bells = pending.userIds.map((userId) =>
      app.liveEvents.touch(userId).catch((error: unknown) => log.warn({ err: error }, 'bell update failed')),
    );
    await eachLimited(pending.mails, MAIL_CONCURRENCY, async (mail) => {
      try {
        await app.mailer.send(requestMailMessage(mail, app.config.publicUrl));
      } catch (error) {
        const err = error as { code?: unknown; message?: unknown };
        log.warn(
          {
            code: typeof err.code === 'string' ? err.code : undefined,
            reason: String(err.message ?? ''),
            subject: mail.subject,
          },
          'request notification mail could not be sent',
        );
      }
    });
    await Promise.all(bells);
  } catch (error) {
    log.warn({ err: error }, 'request notifications could not be delivered');
  }
}
