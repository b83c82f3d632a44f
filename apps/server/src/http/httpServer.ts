import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DialError, MINUTE_MS } from '@dial/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig, HttpLimits, TrustProxy } from '../config/index.js';
import { allowedMethods, toErrorAnswer } from './errorHandling.js';
import { apiSecurityHeaders } from './securityHeaders.js';

/**
 * How often Node looks for requests over their headers or request timeout. Node's default (30 s) would let
 * a slow client keep a connection up to 30 s past its timeout; the check walks the open connections only.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 500;
/** A refused connection is closed at the latest this long after its answer was written. */
const CLOSE_AFTER_ANSWER_MS = 1000;
/** At most one "connection cap reached" warning in this long, so a flood does not flood the log too. */
const DROP_WARNING_INTERVAL_MS = MINUTE_MS;

/** Fastify's options for the HTTP server: the node:http server, proxies, and answers to broken requests. */
export interface HttpServerOptions {
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
  serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) => Server;
  clientErrorHandler: (this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) => void;
  frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * Fastify's server options for Dial's configuration:
 * - `trustProxy` as `TRUST_PROXY` says (never `true`);
 * - a node:http server with the request, headers and idle timeouts and the connection cap of
 *   `config.http` (Fastify's own defaults have no request timeout, and it cannot set the others);
 * - errors before routing (an unparsable request line, over-size headers, a timeout, a malformed URL) answered
 *   like every other error: the catalogue's `{"error":{"code","message"}}` with the security headers.
 *
 * Call {@link watchHttpServer} on the app too.
 */
export function httpServerOptions(config: AppConfig): HttpServerOptions {
  // Every answer written here is a JSON error.
  const headers = apiSecurityHeaders(config);
  return {
    trustProxy: fastifyTrustProxy(config.trustProxy),
    serverFactory: (handler) => createLimitedServer(config.http, handler),
    clientErrorHandler(error, socket) {
      // A reset connection is gone: nothing to answer, nothing worth a log line.
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const answer = clientErrorAnswer(error);
      this.log.debug({ errorCode: answer.code, reason: error.code ?? error.message }, 'client error');
      const extra: Record<string, string> =
        answer.code === 'method_not_allowed' ? { allow: allowedMethods(this) } : {};
      // A response already under way on this socket cannot be followed by another one: just close.
      const pending = (socket as { _httpMessage?: ServerResponse })._httpMessage;
      if (socket.writable && pending?.headersSent !== true) {
        writeRawAnswer(socket, answer, { ...headers, ...extra });
      } else {
        socket.destroy();
      }
    },
    frameworkErrors(error, _request, reply) {
      const { error: answer, status } = toErrorAnswer(error);
      reply
        .code(status)
        .headers(headers)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(answer.toBody()));
    },
  };
}

/**
 * After the app is built: answers `CONNECT` (which node:http hands to a `connect` listener, or drops) with
 * `405 method_not_allowed`, and logs a warning, at most once a minute, while the connection cap refuses
 * connections.
 */
export function watchHttpServer(app: FastifyInstance, config: AppConfig): void {
  const headers = apiSecurityHeaders(config);
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    writeRawAnswer(socket, new DialError('method_not_allowed'), { ...headers, allow: allowedMethods(app) });
  });
  let lastWarning = 0;
  app.server.on('drop', () => {
    const now = Date.now();
    if (now - lastWarning < DROP_WARNING_INTERVAL_MS) return;
    lastWarning = now;
    app.log.warn(
      `MAX_CONNECTIONS (${config.http.maxConnections}) reached: new connections are being closed. ` +
        'Raise it, or limit connections per client at the proxy, if this is not an attack.',
    );
  });
}

/**
 * The `trustProxy` option Fastify takes. A hop count becomes a function: Fastify 5.12 reads a number as
 * "trust nothing" (it cannot check the nearest peer), so the count is applied here, as proxy-addr does: the
 * socket and the `hops - 1` right-most `X-Forwarded-For` entries are proxies, the next entry is the client.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy === false ? false : [...trustProxy];
}

function createLimitedServer(
  limits: HttpLimits,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const server = createServer(
    {
      // Node closes a connection whose headers or whole request have not arrived in time, answering 408
      // through the clientError handler.
      requestTimeout: seconds(limits.requestTimeoutSeconds),
      headersTimeout: seconds(limits.headersTimeoutSeconds),
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
  // Between requests on a kept-alive connection, and on a connection where nothing moves at all.
  server.keepAliveTimeout = seconds(limits.idleTimeoutSeconds);
  server.setTimeout(seconds(limits.idleTimeoutSeconds));
  // Beyond it node:http closes a new connection as soon as it is accepted, so a flood of slow clients cannot
  // use up the process's file descriptors (the database, Redis and SMTP need some too).
  server.maxConnections = limits.maxConnections;
  return server;
}

function seconds(value: number): number {
  return Math.round(value * 1000);
}

/** The catalogue error for a socket-level error of node:http (its llhttp parser codes, or a timeout). */
export function clientErrorAnswer(error: NodeJS.ErrnoException): DialError {
  const details = `${error.code ?? 'client error'}: ${error.message}`;
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DialError('headers_too_large', { details });
    case 'HPE_INVALID_METHOD':
      return new DialError('method_not_allowed', { details });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new DialError('request_timeout', { details });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new DialError('payload_too_large', { details });
    default:
      return new DialError('invalid_data', { details });
  }
}

/**
 * Writes an error answer straight to a socket that has no Fastify reply (the request could not be read),
 * then closes the connection: once the answer is flushed, or after {@link CLOSE_AFTER_ANSWER_MS} for a client
 * that does not read.
 */
function writeRawAnswer(socket: Duplex, error: DialError, headers: Record<string, string>): void {
  const body = JSON.stringify(error.toBody());
  const fields: Record<string, string> = {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    ...Object.entries(fields).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
  setTimeout(() => socket.destroy(), CLOSE_AFTER_ANSWER_MS).unref();
}
