/**
 * The api's log: fastify's pino, JSON on standard output.
 *
 * - One line per request, written when the answer has gone ("request completed", or "request
 *   errored" at error level): method, address, host, client address, status and time taken.
 *   fastify's default writes a second line as each request arrives: twice the log (488 bytes a task
 *   list request, 355 now) and its share of the processor time (docs/performance.md). A request
 *   that never finishes leaves no line of its own; its errors are still logged by fastify.
 * - Written asynchronously (pino's own destination, `sync: false`): lines written while a write is
 *   in flight go out together in one system call, instead of one blocking write per line. pino
 *   flushes what is left when the process exits.
 * - Secrets never reach it: cookies, `Authorization` and the transfer passphrase header are
 *   redacted, and the address is logged without a reset token or a download signature.
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** fastify's log controller with the arrival line left out and the request named in the completion line. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Production logging: secrets in headers never reach the log (bodies are not logged at all). */
export function loggerOptions(level = process.env.LOG_LEVEL ?? 'info'): FastifyServerOptions['logger'] {
  return {
    level,
    stream: pino.destination({ dest: 1, sync: false }),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-transfer-passphrase"]',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        'headers["x-transfer-passphrase"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Password reset links carry their token in the query, signed download links their signature: neither reaches the log.
      req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(/([?&](?:token|s)=)[^&#]*/g, '$1[redacted]'),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}
