import { DialError, type ErrorCode, isDialError } from '@dial/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DeliveryError } from '../delivery/index.js';

/** An error ready to answer: the catalogue error and its HTTP status (always the catalogue's). */
interface ErrorAnswer {
  error: DialError;
  status: number;
}

/** The methods some route of each app answers, for `405 method_not_allowed` and its `Allow` header. */
const routeMethods = new WeakMap<FastifyInstance, Set<string>>();

/**
 * The methods some route of `app` answers, as an `Allow` header value (`DELETE, GET, HEAD, …`). Collected by
 * {@link registerErrorHandling}.
 */
export function allowedMethods(app: FastifyInstance): string {
  return [...(routeMethods.get(app) ?? [])].sort().join(', ');
}

/**
 * Installs the one error handler and the not-found handler:
 * - a {@link DialError} answers its catalogue status and `{"error":{"code","message"}}`, with `Retry-After`
 *   for `too_many_requests` (60 s when the error does not say) and for any other error that carries
 *   `retryAfterSeconds` (`rate_limit_unavailable`);
 * - Fastify's schema validation errors answer `400 invalid_data`;
 * - Fastify's and its plugins' client errors answer the catalogue code of their status (a malformed body
 *   `400 invalid_data`, `413 payload_too_large`, `415 unsupported_media_type`, a static path outside the web
 *   app `404 not_found`; see {@link toErrorAnswer}), never a 5xx;
 * - a method no route of the app answers (`TRACE`, `PROPFIND`, …) answers `405 method_not_allowed` with an
 *   `Allow` header; a known method on an unknown path stays `404 not_found`;
 * - anything else is logged and answers `500 internal_error`, without details.
 *
 * @param fallback - Serves requests no route matched, before `not_found` (the web app's `index.html`);
 *   returns `false` to let `not_found` answer.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
): void {
  const methods = new Set<string>();
  routeMethods.set(app, methods);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(method);
  });

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
    if (!methods.has(request.method)) {
      const error = new DialError('method_not_allowed', { details: request.method });
      return reply.code(error.status).header('allow', allowedMethods(app)).send(error.toBody());
    }
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
    // Fastify's and its plugins' client errors: malformed JSON (400), body too large (413), content type
    // (415), a bad URL (400) or an over-long path parameter (414), @fastify/static's refusals (403 for a
    // path leaving the folder, 416 for a range), … Each answers the code of its status, or invalid_data.
    return answer(CLIENT_ERROR_CODES[status] ?? 'invalid_data', { details: fastifyError?.message });
  }
  return answer('internal_error', { cause: raw });
}

/**
 * The catalogue code for a 4xx status that Fastify or a plugin gives. A 403 from @fastify/static means a
 * path outside the web app's folder: for a client that is simply not found.
 */
const CLIENT_ERROR_CODES: Partial<Record<number, ErrorCode>> = {
  401: 'unauthorized',
  403: 'not_found',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  431: 'headers_too_large',
};

/** The answer for a catalogue code: always the catalogue's status, so a code never comes with another one. */
function answer(code: ErrorCode, options: { details?: string | undefined; cause?: unknown }): ErrorAnswer {
  const error = new DialError(code, {
    ...(options.details === undefined ? {} : { details: options.details }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
  return { error, status: error.status };
}
