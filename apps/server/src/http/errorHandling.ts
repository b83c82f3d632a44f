import { DialError, type ErrorCode, isDialError } from '@dial/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DeliveryError } from '../delivery/index.js';

/** An error ready to answer: the catalogue error, and the HTTP status when it differs from the catalogue's. */
interface ErrorAnswer {
  error: DialError;
  status: number;
}

/**
 * Installs the one error handler and the not-found handler:
 * - a {@link DialError} answers its catalogue status and `{"error":{"code","message"}}`, with `Retry-After`
 *   for `too_many_requests` (60 s when the error does not say) and for any other error that carries
 *   `retryAfterSeconds` (`rate_limit_unavailable`);
 * - Fastify's schema validation errors answer `400 invalid_data`;
 * - a malformed body, an unsupported content type or a body over the limit answer `invalid_data` with 400,
 *   415 or 413 (a client mistake, never a 5xx);
 * - anything else is logged and answers `500 internal_error`, without details.
 *
 * @param fallback - Serves requests no route matched, before `not_found` (the web app's `index.html`);
 *   returns `false` to let `not_found` answer.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
): void {
  app.setErrorHandler((raw, request, reply) => {
    const { error, status } = toErrorAnswer(raw);
    if (error.code === 'internal_error') {
      request.log.error({ err: raw }, 'unexpected error');
    } else {
      request.log.debug({ errorCode: error.code, details: error.details }, 'request refused');
    }
    const retryAfter = retryAfterSeconds(error);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return reply.code(status).type('application/json; charset=utf-8').send(error.toBody());
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(api|dev)(\/|$)/.test(path);
    if (!isApi && fallback !== undefined && (await fallback(request, reply))) return reply;
    const error = new DialError('not_found');
    return reply.code(error.status).send(error.toBody());
  });
}

/**
 * The whole seconds a client should wait before retrying `error`, at least 1: its `retryAfterSeconds`, or 60
 * for `too_many_requests` without one; `undefined` when the answer has no `Retry-After`.
 */
export function retryAfterSeconds(error: DialError): number | undefined {
  const seconds = error.retryAfterSeconds ?? (error.code === 'too_many_requests' ? 60 : undefined);
  return seconds === undefined ? undefined : Math.max(1, Math.ceil(seconds));
}

/** Reads any thrown value into the answer the API gives. */
export function toErrorAnswer(raw: unknown): ErrorAnswer {
  if (isDialError(raw)) return { error: raw, status: raw.status };
  if (raw instanceof DeliveryError) {
    return answer('delivery_failed', { details: raw.message, cause: raw });
  }
  const fastifyError = raw as Partial<FastifyError> | undefined;
  if (fastifyError?.validation !== undefined) {
    return answer('invalid_data', { details: fastifyError.message });
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON (400), body too large (413), content type (415), …
    if (status === 404) return answer('not_found', { details: fastifyError?.message });
    if (status === 429) return answer('too_many_requests', { details: fastifyError?.message });
    if (status === 401) return answer('unauthorized', { details: fastifyError?.message });
    return answer('invalid_data', { details: fastifyError?.message, status });
  }
  return answer('internal_error', { cause: raw });
}

function answer(
  code: ErrorCode,
  options: { details?: string | undefined; cause?: unknown; status?: number },
): ErrorAnswer {
  const error = new DialError(code, {
    ...(options.details === undefined ? {} : { details: options.details }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
  return { error, status: options.status ?? error.status };
}
