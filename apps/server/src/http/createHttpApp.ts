import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyRequest } from 'fastify';
import pino from 'pino';
import type { AppConfig } from '../config/index.js';
import { httpServerOptions, watchHttpServer } from './httpServer.js';
import { withLazyChildren } from './lazyChildLogger.js';
import { lazySerializerCompiler } from './lazySerializers.js';
import { redactUrl } from './redactUrl.js';
import { OneLineRequestLog } from './requestLog.js';
import type { TypedApp } from './typedApp.js';

/** Request bodies are small JSON documents; the JSON-RPC proxy allows more on its own route. */
const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Log paths that could carry secrets: session cookies, authorization headers, bodies (codes, auth shares).
 * Fastify's default serializers log none of them; this keeps it so if a log call adds them.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'req.body',
  'body',
  'code',
  'token',
  'authShare',
  '*.authShare',
];

/**
 * The Fastify app with no route yet: its logger (secrets redacted, one line a request, written in the
 * background), the HTTP server's bounds (`httpServer.ts`), TypeBox's validator and the lazily compiled
 * serializers.
 *
 * @param logStream - Where the JSON log lines go; stdout by default.
 */
export function createHttpApp(
  config: AppConfig,
  logStream: { write(line: string): void } | undefined,
): TypedApp {
  const logger = pino(
    {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Fastify's request serializer, with secrets in the query (the on-ramp's sessionToken) blanked; Fastify
      // adds its own for the rest (`res`, `err`).
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    // To stdout through a buffer written in the background (pino flushes it when the process exits), so a
    // request does not wait on a write(2) of its log lines.
    logStream ?? pino.destination({ dest: 1, sync: false }),
  );
  const app = Fastify({
    // A request's child logger (with its reqId) is made when it first logs, not for every request.
    loggerInstance: withLazyChildren(logger),
    logController: new OneLineRequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    // TRUST_PROXY, the timeouts and connection cap, and catalogue answers to requests that cannot be read
    // (over-size headers, an unknown method, a timeout, a malformed URL), with the security headers.
    ...httpServerOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  watchHttpServer(app, config);
  // TypeBox's own checker: strict types (no coercion of 1 to "1"), exactly what the schemas say.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // Each response serializer is compiled at its first use rather than all of them at start.
  app.setSerializerCompiler(lazySerializerCompiler());
  // Only JSON bodies: text/plain (a "simple" cross-site request) is refused with 415 before any handler.
  app.removeContentTypeParser('text/plain');
  return app;
}
