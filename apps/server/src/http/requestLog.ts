import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'failures'`: the route's `request completed` line is written only for an answer of 400 or more (or a
     * request that errored), not for a successful one. For the reads every page load or load balancer makes
     * (`GET /api/health`, `/api/ready`, `/api/config`, `/api/me`), so a busy server does not spend its time on
     * log lines nobody reads; their refusals (an ended session's 401, a rate limit's 429) are still logged.
     */
    accessLog?: 'failures';
  }
}

/**
 * Fastify's request log in one line per request instead of two: no "incoming request" line, and the
 * "request completed" (or "request errored") line carries the request (method, URL with secrets blanked,
 * host, client address) beside the status and the time taken. Fastify's other lines are unchanged.
 *
 * Every answer of 400 or more and every request that errored is logged (at `info`, `error` for an error), so
 * auth failures, CSRF refusals and rate limits always are; a successful answer of a route with
 * `config.accessLog: 'failures'` is not.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error(
        { req: request, res: reply, responseTime: reply.elapsedTime, err: error },
        'request errored',
      );
      return;
    }
    if (reply.statusCode < 400 && request.routeOptions.config.accessLog === 'failures') return;
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
