/**
 * The evidence request reminder and daily digest sweep (modules/requests/reminders.ts): once at
 * start, then every REQUEST_REMINDER_MINUTES; closing the app stops it and waits for the notices
 * still going out. Encapsulated (its hooks are its own); it depends on the mailer so that, closing in
 * reverse order, the notices are sent before the mailer closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { REQUEST_CLOSE_WAIT_MS, closeRequestDeliveries, settledWithin } from '../../modules/requests/notice-delivery';
import { sweepRequestReminders } from '../../modules/requests/reminders';

async function requestReminders(app: FastifyInstance) {
  // Once at start, then every REQUEST_REMINDER_MINUTES (0: never) until the app closes. Starting does
  // not wait for it: a slow or dead mail server must not hold the app.
  const minutes = app.config.requestReminderMinutes;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const stop = new AbortController();
  const sweep = () => {
    if (stop.signal.aborted) return;
    running ??= sweepRequestReminders(app, new Date(), { signal: stop.signal })
      .catch((error: unknown) => app.log.error({ err: error }, 'the request reminder sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  if (minutes > 0) {
    app.addHook('onReady', async () => {
      sweep();
      timer = setInterval(sweep, minutes * 60 * 1000);
      timer.unref();
    });
  }
  // Closing stops the sweep (between batches), then waits for it and for the notices still going out
  // (every route's, background deliveries included), REQUEST_CLOSE_WAIT_MS at most in all.
  app.addHook('onClose', async () => {
    const deadline = Date.now() + REQUEST_CLOSE_WAIT_MS;
    stop.abort();
    if (timer) clearInterval(timer);
    timer = null;
    if (running && !(await settledWithin(running, deadline - Date.now())))
      app.log.warn('the request reminder sweep was still running when the app closed');
    await closeRequestDeliveries(app, deadline - Date.now());
  });
}

export default fp(requestReminders, { name: 'request-reminders', dependencies: ['mailer'], encapsulate: true });
