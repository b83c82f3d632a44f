import { errorCodesOf } from '@dial/api';
import { type ErrorCode, isErrorCode } from '@dial/core';
import type { FastifyInstance } from 'fastify';

/**
 * In tests only: refuses to answer an error code that the route's contract (`@dial/api`) does not declare
 * for that status, so every test that provokes an error also checks the route's declared list. The answer
 * becomes `500 internal_error` (which any route may answer) and the mismatch is written to stderr, so the
 * test fails on a status it did not expect and says why.
 *
 * Answers without a route schema (the not-found handler, hidden routes such as the HTML pages) and bodies
 * that are not catalogue errors (the JSON-RPC proxy passes the chain's own errors through) are left alone.
 * Register it before the routes: a route takes the hooks present when it is built.
 */
export function registerUndeclaredErrorCheck(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    const response = (request.routeOptions.schema as { response?: Record<number, unknown> } | undefined)
      ?.response;
    if (response === undefined) return payload;
    const code = codeOf(payload);
    if (code === undefined || code === 'internal_error') return payload;
    if (errorCodesOf(response[reply.statusCode]).includes(code)) return payload;
    const message = `${request.method} ${request.routeOptions.url} answered ${reply.statusCode} ${code}, which its contract in @dial/api does not declare`;
    console.error(message);
    throw new Error(message);
  });
}

/** The catalogue code of a serialized error answer (a JSON-RPC error's in `data.code`), if it is one. */
function codeOf(payload: string): ErrorCode | undefined {
  try {
    const error = (JSON.parse(payload) as { error?: { code?: unknown; data?: { code?: unknown } } } | null)
      ?.error;
    const code = typeof error?.code === 'number' ? error.data?.code : error?.code;
    return isErrorCode(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
