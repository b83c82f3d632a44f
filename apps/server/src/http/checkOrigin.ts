import { DialError } from '@dial/core';
import type { FastifyInstance } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses cross-site state-changing requests (CSRF) with `403 forbidden_origin`: a POST, PUT, PATCH or
 * DELETE whose `Origin` is not one of `allowedOrigins`, or that has no `Origin` but a `Sec-Fetch-Site` of
 * `cross-site`. Requests with neither header (curl, server-to-server) pass: a browser always sends one of
 * them with a cross-site POST. The SameSite=Strict cookie is the second line of defence.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins);
  // A plain callback: it runs on every request, and most (GET, HEAD) pass at once.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) {
      done();
      return;
    }
    done(refusal(request.headers.origin, request.headers['sec-fetch-site'], allowed));
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
