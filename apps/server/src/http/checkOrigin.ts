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
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!allowed.has(origin)) throw new DialError('forbidden_origin', { details: `origin ${origin}` });
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new DialError('forbidden_origin', { details: 'Sec-Fetch-Site: cross-site' });
    }
  });
}
