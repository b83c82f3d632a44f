import { DialError } from '@dial/core';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses cross-site state-changing requests (CSRF) with `403 forbidden_origin`: a POST, PUT, PATCH or
 * DELETE whose `Origin` is not one of `allowedOrigins`, or that has no `Origin` but a `Sec-Fetch-Site` of
 * `cross-site`. Requests with neither header (curl, server-to-server) pass: a browser always sends one of
 * them with a cross-site POST. The SameSite=Strict cookie is the second line of defence.
 *
 * Register it before the routes: it joins each route as it is added.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins);
  const check: onRequestHookHandler = (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) {
      done();
      return;
    }
    done(refusal(request.headers.origin, request.headers['sec-fetch-site'], allowed));
  };
  // On the routes that take a state-changing method only, first of their onRequest hooks: a read (GET,
  // HEAD) runs no hook at all, and a change no route answers is a 404 that changed nothing.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => STATE_CHANGING.has(method))) return;
    route.onRequest = [check, ...[route.onRequest ?? []].flat()];
  });
}

/** The refusal of a state-changing request with these headers, or `undefined` when it may go on. */
function refusal(
  origin: string | undefined,
  fetchSite: string | string[] | undefined,
  allowed: ReadonlySet<string>,
): DialError | undefined {
  if (origin !== undefined) {
    return allowed.has(origin)
      ? undefined
      : new DialError('forbidden_origin', { details: `origin ${origin}` });
  }
  if (fetchSite === 'cross-site') {
    return new DialError('forbidden_origin', { details: 'Sec-Fetch-Site: cross-site' });
  }
  return undefined;
}
