import { getChains } from '@dial/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../config/index.js';

/** What the security headers depend on. */
export type SecurityHeadersConfig = Pick<AppConfig, 'environment' | 'rpcUrls' | 'walletConnect'>;

/**
 * The Content-Security-Policy: everything from this origin only, no inline scripts or styles, and JSON-RPC
 * to the RPC endpoint of each supported chain (the web app reads balances from them directly): the origin of
 * its `RPC_URL_<chainId>` when one is set, else of viem's default; and, when WalletConnect is configured, a
 * WebSocket to its relay (`WALLETCONNECT_RELAY_URL`'s origin). Origins only, so no key in a URL's path or
 * query ends up in the header.
 *
 * @param rpcUrls - The configured RPC URLs by chain id (`AppConfig.rpcUrls`).
 * @param walletConnect - WalletConnect's settings (`AppConfig.walletConnect`), or null when it is off.
 */
export function contentSecurityPolicy(
  rpcUrls: AppConfig['rpcUrls'] = {},
  walletConnect: AppConfig['walletConnect'] = null,
): string {
  const rpcOrigins = new Set<string>();
  for (const chain of getChains({ rpcUrls })) {
    for (const url of chain.rpcUrls.default.http) rpcOrigins.add(new URL(url).origin);
  }
  if (walletConnect !== null) rpcOrigins.add(new URL(walletConnect.relayUrl).origin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...rpcOrigins].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The Content-Security-Policy of a JSON answer (every `/api` answer, and errors written outside Fastify's
 * hooks): nothing may load, nothing may frame it. A browser that is somehow made to render one runs nothing.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sets the security headers on every answer (API, errors, not-found, static files) in an `onSend` hook,
 * which runs for all of them: `/api` answers get the JSON policy ({@link apiSecurityHeaders}), the rest
 * the pages' policy. `Cache-Control: no-store` goes on `/api` and `/dev` answers, which are per-user and
 * must never sit in a shared cache, and on every error answer (a cached error would outlive its cause). The
 * headers are built once; the hook is a plain callback (no promise a request), and writes an API answer's
 * headers straight into the reply ({@link constantHeaders}).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: SecurityHeadersConfig): void {
  const pageHeaders = securityHeaders(config);
  const setApiHeaders = constantHeaders(apiSecurityHeaders(config));
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (isUnder(request.url, '/api')) {
      setApiHeaders(reply);
    } else {
      reply.headers(pageHeaders);
      if (reply.statusCode >= 400 || isUnder(request.url, '/dev')) reply.header('cache-control', 'no-store');
    }
    done();
  });
}

/**
 * Sets `headers` (lower-case names, valid values, the same on every answer) on a reply, overriding any of the
 * same names. `reply.headers` lower-cases and looks at each name again on every call: for the seven headers
 * of an API answer, half a microsecond of the 12 µs of `GET /api/health` (docs/BENCHMARKS.md). These are
 * written straight into the object Fastify sends a reply's headers from, which it keeps under an internal
 * symbol, found once. Should a Fastify no longer have it, `reply.headers` sets them
 * (securityHeaders.test.ts checks that this Fastify has it).
 */
export function constantHeaders(headers: Readonly<Record<string, string>>): (reply: FastifyReply) => void {
  const names = Object.keys(headers);
  const values = Object.values(headers);
  return (reply) => {
    const fields = replyHeaders(reply);
    if (fields === undefined) {
      reply.headers(headers);
      return;
    }
    for (let index = 0; index < names.length; index++) fields[names[index]!] = values[index];
  };
}

/** Fastify's symbol for a reply's headers: found at the first reply, `null` when it has none. */
let replyHeadersSymbol: symbol | null | undefined;

/** The object Fastify sends `reply`'s headers from (lower-case names), or `undefined` when not found. */
export function replyHeaders(reply: FastifyReply): Record<string, unknown> | undefined {
  if (replyHeadersSymbol === undefined) {
    replyHeadersSymbol =
      Object.getOwnPropertySymbols(reply).find(
        (symbol) =>
          symbol.description === 'fastify.reply.headers' &&
          typeof (reply as unknown as Record<symbol, unknown>)[symbol] === 'object',
      ) ?? null;
  }
  if (replyHeadersSymbol === null) return undefined;
  return (reply as unknown as Record<symbol, Record<string, unknown> | undefined>)[replyHeadersSymbol];
}

/** Whether a request URL is `/api` or `/dev`, or under them (`/api/…`, `/dev?…`), not `/apiary`. */
export function isApiOrDevPath(url: string): boolean {
  return isUnder(url, '/api') || isUnder(url, '/dev');
}

/** Whether `url` is `prefix` or under it (`prefix/…`, `prefix?…`); `prefix` is `/` and three letters. */
function isUnder(url: string, prefix: '/api' | '/dev'): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(4);
  // The end, `/` or `?`.
  return Number.isNaN(next) || next === 0x2f || next === 0x3f;
}

/**
 * The headers of a JSON answer: the JSON policy ({@link API_CONTENT_SECURITY_POLICY}), `nosniff`,
 * `X-Frame-Options: DENY`, `Cross-Origin-Resource-Policy: same-origin`, HSTS in production and
 * `Cache-Control: no-store`: the set OWASP's REST Security Cheat Sheet asks of API answers, plus CORP, which
 * keeps other sites from pulling an answer into their own process. Referrer-Policy, Cross-Origin-Opener-Policy
 * and Permissions-Policy act only on documents that load or run something, which the JSON policy forbids, so
 * they go on the pages alone: every header is work on every request, and these would do nothing here.
 */
export function apiSecurityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const {
    'referrer-policy': _referrer,
    'cross-origin-opener-policy': _opener,
    'permissions-policy': _permissions,
    ...common
  } = securityHeaders(config);
  return { ...common, 'content-security-policy': API_CONTENT_SECURITY_POLICY, 'cache-control': 'no-store' };
}

/** The headers of the app's pages and files (the pages' policy); see {@link registerSecurityHeaders}. */
export function securityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(config.rpcUrls, config.walletConnect),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
  if (config.environment === 'production') {
    // No includeSubDomains: a self-hosted Dial should not force HTTPS on its owner's other subdomains.
    headers['strict-transport-security'] = 'max-age=31536000';
  }
  return headers;
}
