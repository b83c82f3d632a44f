import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SERVER_ROOT } from '../serverRoot.js';

/**
 * Collects the routes registered after it into the OpenAPI document (`GET /api/openapi.json`, served by
 * `system/`): register it before any route.
 *
 * @param sessionCookie - The session cookie's name, the document's security scheme.
 */
export async function registerOpenApi(app: FastifyInstance, sessionCookie: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Dial API',
        version: readPackageVersion(),
        description:
          'Sign-in with one-time codes, sessions, and the embedded-wallet registry of a Dial server. ' +
          'Errors are `{"error":{"code","message"}}` with a code from the error catalogue.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: sessionCookie } },
      },
    },
  });
}

function readPackageVersion(): string {
  const text = readFileSync(new URL('package.json', SERVER_ROOT), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
