import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's request log in one line per request instead of two: no "incoming request" line, and the
 * "request completed" (or "request errored") line carries the request (method, URL with secrets blanked,
 * host, client address) beside the status and the time taken. Fastify's other lines are unchanged.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) {
      reply.log.error({ ...fields, err: error }, 'request errored');
    } else {
      reply.log.info(fields, 'request completed');
    }
  }
}
