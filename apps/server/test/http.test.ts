import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CATALOGUE, encodeShare, SHARE_LENGTH, SUPPORTED_CHAINS } from '@dial/core';
import SqliteDatabase from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { TrustProxy } from '../src/config/index.js';
import { isApiOrDevPath } from '../src/http/securityHeaders.js';
import { useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, ORIGIN, PHONE, testConfig } from './testApp.js';

// These are about HTTP, not storage: SQLite is enough.
const db = useTestDatabase('sqlite');

/** A path outside `/api` and `/dev`: what the app's pages and files are answered with (here a 404). */
const PAGE = '/some/page';

/**
 * The security headers of an API answer: JSON, so its policy lets nothing load, and none of the headers that
 * act only on documents (they go on pages alone).
 */
function expectSecurityHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expectCommonSecurityHeaders(response);
  expect(response.headers['cache-control']).toBe('no-store');
  for (const header of DOCUMENT_ONLY_HEADERS) expect(response.headers[header]).toBeUndefined();
}

/** The security headers of a page or file of the app, whose policy lets the app run. */
function expectPageSecurityHeaders(response: LightMyRequestResponse): void {
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toMatch(/connect-src 'self' https:\/\/\S+/);
  expectCommonSecurityHeaders(response);
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');
}

/** Headers that act only on a document that loads or runs something: pages get them, JSON answers do not. */
const DOCUMENT_ONLY_HEADERS = ['referrer-policy', 'cross-origin-opener-policy', 'permissions-policy'];

function expectCommonSecurityHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
}

describe('bad input is a 4xx with a catalogue code, never a 5xx', () => {
  it.each([
    ['malformed JSON', '{"channel": "email", "to": ', 'application/json', 400, 'invalid_data'],
    ['an empty JSON body', '', 'application/json', 400, 'invalid_data'],
    ['a JSON array', '[1,2,3]', 'application/json', 400, 'invalid_data'],
    ['a JSON string', '"hello"', 'application/json', 400, 'invalid_data'],
    [
      'a form body',
      'channel=email&to=ada%40example.com',
      'application/x-www-form-urlencoded',
      415,
      'unsupported_media_type',
    ],
    [
      'a body over 16 KiB',
      JSON.stringify({ channel: 'email', to: 'x'.repeat(20_000) }),
      'application/json',
      413,
      'payload_too_large',
    ],
    [
      '__proto__ in JSON',
      '{"__proto__": {"admin": true}, "channel": "email", "to": "a@b.co"}',
      'application/json',
      400,
      'invalid_data',
    ],
  ] as const)('answers %s with %i %s', async (_name, payload, contentType, status, code) => {
    const t = await createTestApp(db());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: ORIGIN, 'content-type': contentType },
      payload,
    });
    expectError(response, status, code);
    expectSecurityHeaders(response);
    expect(t.transport.sent).toHaveLength(0);
  });

  it('answers a malformed URL with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const response = await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_data');
    expectSecurityHeaders(response);
  });

  it.each([
    ['POST', '/api/nothing-here'],
    ['GET', '/api/nothing-here'],
    ['GET', '/dev/nothing-here'],
    ['PUT', '/api/me'],
    ['GET', '/'],
  ])('answers %s %s with 404 not_found (no web app built)', async (method, url) => {
    const t = await createTestApp(db());
    const response = await t.app.inject({ method: method as 'GET', url, headers: { origin: ORIGIN } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
    if (url.startsWith('/api')) expectSecurityHeaders(response);
    else expectPageSecurityHeaders(response);
  });
});

describe('headers', () => {
  it('sets the security headers and no-store on API answers', async () => {
    const t = await createTestApp(db());
    const response = await t.get('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expectSecurityHeaders(response);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it("gives the app's pages the policy that lets the app run, and API answers one that lets nothing load", async () => {
    const t = await createTestApp(db());
    const page = await t.get(PAGE);
    expectPageSecurityHeaders(page);
    // A page's error is not cached either; a page answer that is not an error is (see the web app's tests).
    expect(page.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/health', '/api/config', '/api/me', '/api/nothing-here']) {
      const answer = await t.get(url);
      expectSecurityHeaders(answer);
      expect(answer.headers['content-security-policy']).not.toContain('script-src');
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it("allows JSON-RPC to every supported chain's default RPC origin", async () => {
    const t = await createTestApp(db());
    const csp = String((await t.get(PAGE)).headers['content-security-policy']);
    const connect = csp.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '';
    const rpcOrigins = SUPPORTED_CHAINS.flatMap((chain) =>
      chain.rpcUrls.default.http.map((url) => new URL(url).origin),
    );
    expect(rpcOrigins.length).toBeGreaterThanOrEqual(SUPPORTED_CHAINS.length);
    expect(connect.split(' ').slice(1).sort()).toEqual(["'self'", ...new Set(rpcOrigins)].sort());
  });

  it("allows a WebSocket to the WalletConnect relay's origin only when WalletConnect is configured", async () => {
    const connectSources = async (walletConnect: { projectId: string; relayUrl: string } | null) => {
      const t = await createTestApp(db(), { config: { walletConnect } });
      const csp = String((await t.get(PAGE)).headers['content-security-policy']);
      return (csp.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '').split(' ');
    };
    const relayUrl = 'wss://relay.example.com/v1?projectId=0123456789abcdef0123456789abcdef';
    const withRelay = await connectSources({ projectId: '0123456789abcdef0123456789abcdef', relayUrl });
    expect(withRelay).toContain('wss://relay.example.com');
    expect(withRelay.join(' ')).not.toContain('projectId');
    expect((await connectSources(null)).filter((source) => source.startsWith('ws'))).toEqual([]);
  });

  it("allows an RPC_URL_<chainId> override's origin instead of that chain's default, keeping the others", async () => {
    const t = await createTestApp(db(), {
      config: {
        rpcUrls: { 8453: 'https://base.example.com:8443/v1/SECRETKEY?x=1', 137: 'http://10.0.0.5:8545/' },
      },
    });
    const response = await t.get(PAGE);
    const csp = String(response.headers['content-security-policy']);
    const connect = csp.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '';
    const defaultOrigins = SUPPORTED_CHAINS.filter((chain) => chain.id !== 8453 && chain.id !== 137).flatMap(
      (chain) => chain.rpcUrls.default.http.map((url) => new URL(url).origin),
    );
    expect(connect.split(' ').slice(1).sort()).toEqual(
      ["'self'", 'https://base.example.com:8443', 'http://10.0.0.5:8545', ...new Set(defaultOrigins)].sort(),
    );
    expect(connect).not.toContain('https://mainnet.base.org');
    expect(csp).not.toContain('SECRETKEY');
    // An answer written outside Fastify's hooks (a malformed URL) is JSON: the JSON policy, no RPC origin.
    const malformed = await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expectSecurityHeaders(malformed);
  });

  it.each([
    ['/api', true],
    ['/api/me', true],
    ['/api?x=1', true],
    ['/dev/outbox', true],
    ['/apiary', false],
    ['/developer', false],
    ['/', false],
    ['/assets/index.js', false],
    ['/index.html?api', false],
  ])('marks %s as an API path (Cache-Control: no-store): %s', (url, expected) => {
    expect(isApiOrDevPath(url)).toBe(expected);
  });

  it('sets them and Cache-Control: no-store on the quiet reads too', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', 'ada@example.com');
    for (const answer of [
      await t.get('/api/health'),
      await t.get('/api/config'),
      await t.get('/api/me', { token }),
    ]) {
      expect(answer.statusCode).toBe(200);
      expectSecurityHeaders(answer);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('sets them on errors too: 401, 403 and 429', async () => {
    const t = await createTestApp(db());
    expectSecurityHeaders(await t.get('/api/me'));
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://x.example' },
    });
    expect(forbidden.statusCode).toBe(403);
    expectSecurityHeaders(forbidden);
    await t.requestCode('email', 'ada@example.com');
    const limited = await t.post('/api/auth/otp/start', { channel: 'email', to: 'ada@example.com' });
    expect(limited.statusCode).toBe(429);
    expectSecurityHeaders(limited);
    expect(limited.headers['cache-control']).toBe('no-store');
  });

  it('adds Strict-Transport-Security in production', async () => {
    const t = await createTestApp(db(), { config: { environment: 'production' } });
    const response = await t.get('/api/health');
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });

  it('warns in production about an http RPC_URL_<chainId>, without logging the URL', async () => {
    const lines: string[] = [];
    await createTestApp(db(), {
      config: {
        environment: 'production',
        logLevel: 'warn',
        rpcUrls: { 137: 'http://10.0.0.5:8545/SECRETKEY', 8453: 'https://base.example.com/v1/OTHERKEY' },
      },
      deps: { logStream: { write: (line) => lines.push(line) } },
    });
    const rpcWarnings = lines.filter((line) => line.includes('RPC_URL_'));
    expect(rpcWarnings).toHaveLength(1);
    expect(JSON.parse(rpcWarnings[0]!).msg).toBe(
      'RPC_URL_137 is not https: browsers block it from an https page, so reading that chain fails',
    );
    expect(lines.join('')).not.toMatch(/SECRETKEY|OTHERKEY/);
  });

  it('answers an unexpected failure with 500 internal_error and logs it', async () => {
    const lines: string[] = [];
    const t = await createTestApp(db(), {
      config: { logLevel: 'error' },
      deps: { logStream: { write: (line) => lines.push(line) } },
    });
    await db().schema.dropTable('rate_limits').execute();
    const response = await t.post('/api/auth/otp/start', { channel: 'email', to: 'ada@example.com' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: 'internal_error', message: ERROR_CATALOGUE.internal_error.message },
    });
    expectSecurityHeaders(response);
    expect(lines.some((line) => line.includes('unexpected error') && line.includes('rate_limits'))).toBe(
      true,
    );
  });
});

describe('the client IP address for rate limits', () => {
  /** 21 sign-in starts from one socket address, each with another forged X-Forwarded-For. */
  async function startsFromOneSocket(trustProxy: TrustProxy, ip = '127.0.0.1'): Promise<number[]> {
    const t = await createTestApp(db(), { config: { trustProxy } });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await t.post(
        '/api/auth/otp/start',
        { channel: 'email', to: `user${i}@example.com` },
        { headers: { 'x-forwarded-for': `203.0.113.${i}` }, ip },
      );
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it('is the socket address by default: X-Forwarded-For is ignored', async () => {
    expect((await startsFromOneSocket(false)).at(-1)).toBe(429);
  });

  it('ignores X-Forwarded-For from a client that is not one of the TRUST_PROXY addresses', async () => {
    expect((await startsFromOneSocket(['10.0.0.0/8'], '198.51.100.7')).at(-1)).toBe(429);
  });

  it('comes from X-Forwarded-For when the socket is a TRUST_PROXY address', async () => {
    expect(new Set(await startsFromOneSocket(['10.0.0.0/8'], '10.1.2.3'))).toEqual(new Set([200]));
  });
});

describe('buildApp without a database given', () => {
  it('opens the SQLite file in DATA_DIR (WAL), migrates it, and closes it with the app', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dial-data-'));
    try {
      const app = await buildApp(testConfig({ dataDir }), {});
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      await app.close();
      const sqlite = new SqliteDatabase(join(dataDir, 'dial.sqlite'), { readonly: true });
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").all();
      expect(tables).toContainEqual({ name: 'wallets' });
      sqlite.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('logs', () => {
  it('never hold codes, session tokens or auth shares, even at trace level', async () => {
    const lines: string[] = [];
    const t = await createTestApp(db(), {
      config: { logLevel: 'trace' },
      deps: { logStream: { write: (line) => lines.push(line) } },
    });
    const code = await t.requestCode('sms', PHONE);
    const verify = await t.post('/api/auth/otp/verify', { channel: 'sms', to: PHONE, code });
    const token = verify.cookies[0]?.value ?? '';
    const authShare = encodeShare(new Uint8Array(SHARE_LENGTH).fill(7));
    await t.post(
      '/api/wallet',
      { address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72', authShare },
      { token },
    );
    await t.get('/api/wallet', { token });
    await t.post('/api/auth/logout', {}, { token });
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(log).not.toContain(code);
    expect(log).not.toContain(token);
    expect(log).not.toContain(authShare);
  });
});

describe('the request log', () => {
  /** The `request completed` / `request errored` lines written so far, as `METHOD url status`. */
  function requestLines(lines: string[]): string[] {
    return lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'request completed' || entry.msg === 'request errored')
      .map((entry) => `${entry.req.method} ${entry.req.url} ${entry.res.statusCode}`);
  }

  it('skips successful reads of health, config and me, and logs every refusal, error and change', async () => {
    const lines: string[] = [];
    const t = await createTestApp(db(), {
      config: { logLevel: 'info' },
      deps: { logStream: { write: (line) => lines.push(line) } },
    });
    const { token } = await t.signIn('email', 'ada@example.com');
    lines.length = 0;
    for (const url of ['/api/health', '/api/config', '/api/ready'])
      expect((await t.get(url)).statusCode).toBe(200);
    expect((await t.get('/api/me', { token })).statusCode).toBe(200);
    expect(requestLines(lines)).toEqual([]);

    // An auth failure, a CSRF refusal, a rate limit, an unknown path: each one line.
    expect((await t.get('/api/me', { token: 'A'.repeat(43) })).statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example', cookie: `dial_session=${token}` },
    });
    expect(crossSite.statusCode).toBe(403);
    let limited = 0;
    for (let i = 0; i < 25 && limited === 0; i++) {
      const answer = await t.post('/api/auth/otp/start', { channel: 'email', to: `user${i}@example.com` });
      if (answer.statusCode === 429) limited++;
    }
    expect(limited).toBe(1);
    expect((await t.get('/api/nothing-here')).statusCode).toBe(404);
    // Other reads are logged as before, and so is every change (here, signing out).
    expect((await t.get('/api/wallet', { token })).statusCode).toBe(404);
    expect((await t.post('/api/auth/logout', {}, { token })).statusCode).toBe(200);

    const logged = requestLines(lines);
    expect(logged).toContain('GET /api/me 401');
    expect(logged).toContain('POST /api/auth/logout 403');
    expect(logged).toContain('POST /api/auth/otp/start 429');
    expect(logged).toContain('GET /api/nothing-here 404');
    expect(logged).toContain('GET /api/wallet 404');
    expect(logged.at(-1)).toBe('POST /api/auth/logout 200');
    expect(logged.filter((line) => line.startsWith('POST /api/auth/otp/start 200')).length).toBeGreaterThan(
      0,
    );
    expect(logged.some((line) => /^GET \/api\/(health|config|ready) /.test(line))).toBe(false);
    // Each request's lines carry its own id (the request loggers are made when a request first logs).
    const ids = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'request completed' || entry.msg === 'request errored')
      .map((entry) => entry.reqId);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('logs an unexpected failure of a quiet route', async () => {
    const lines: string[] = [];
    const t = await createTestApp(db(), {
      config: { logLevel: 'info' },
      deps: { logStream: { write: (line) => lines.push(line) } },
    });
    const { token } = await t.signIn('email', 'ada@example.com');
    await db().schema.alterTable('sessions').renameTo('sessions_gone').execute();
    const answer = await t.get('/api/me', { token });
    expect(answer.statusCode).toBe(500);
    expect(requestLines(lines)).toContain('GET /api/me 500');
    // The handler's own line and the request line are the same request's.
    const unexpected = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'unexpected error');
    const completed = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'request completed' && entry.req.url === '/api/me');
    expect(unexpected?.reqId).toBeTypeOf('string');
    expect(unexpected?.reqId).toBe(completed?.reqId);
  });
});

describe('the OpenAPI document', () => {
  it('refuses a cross-site request on every route that changes something, before anything else', async () => {
    const t = await createTestApp(db(), {
      config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:9' } },
    });
    const document = (await t.get('/api/openapi.json')).json();
    const changes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) =>
        Object.keys(methods)
          .map((method) => method.toUpperCase())
          .filter((method) => method !== 'GET' && method !== 'HEAD')
          .map((method) => ({
            method,
            url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
          })),
    );
    expect(changes.length).toBeGreaterThan(20);
    for (const { method, url } of changes) {
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
        const answer = await t.app.inject({ method: method as 'POST', url, headers, payload: {} });
        expect(`${method} ${url} ${answer.statusCode} ${answer.json().error?.code}`).toBe(
          `${method} ${url} 403 forbidden_origin`,
        );
      }
    }
  });

  it('lists every API route with its schemas', async () => {
    const t = await createTestApp(db(), {
      config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:9' } },
    });
    const response = await t.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    const routes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'GET /api/health',
        'GET /api/ready',
        'GET /api/config',
        'POST /api/auth/otp/start',
        'POST /api/auth/otp/verify',
        'POST /api/auth/siwe/nonce',
        'POST /api/auth/siwe/verify',
        'POST /api/auth/methods/wallet/nonce',
        'POST /api/auth/methods/wallet',
        'GET /api/me',
        'POST /api/auth/logout',
        'POST /api/wallet/challenge',
        'POST /api/wallet',
        'GET /api/wallet',
        'PUT /api/wallet/shares',
        'GET /api/wallet/recovery',
        'POST /api/wallet/recovery/failed',
        'POST /api/wallet/recovery/oprf',
        'POST /api/wallet/export',
        'GET /api/wallet/devices',
        'POST /api/wallet/devices',
        'POST /api/wallet/devices/{id}/unlock',
        'POST /api/wallet/devices/{id}/remove',
        'POST /api/wallet/links',
        'POST /api/wallet/links/claim',
        'GET /api/wallet/links/{id}',
        'POST /api/wallet/links/{id}/confirm',
        'POST /api/wallet/links/{id}/cancel',
        'POST /api/auth/reauth/start',
        'POST /api/auth/reauth/verify',
        'GET /api/auth/methods',
        'POST /api/auth/methods/code',
        'POST /api/auth/methods/code/verify',
        'POST /api/auth/methods/passkey/options',
        'POST /api/auth/methods/passkey',
        'POST /api/auth/passkey/sign-up/options',
        'POST /api/auth/passkey/sign-up',
        'POST /api/auth/passkey/sign-in/options',
        'POST /api/auth/passkey/sign-in',
        'PATCH /api/auth/methods/{id}',
        'POST /api/auth/methods/{id}/remove',
        'POST /api/auth/methods/{id}/use-wallet',
        'GET /api/auth/sessions',
        'POST /api/auth/sessions/{id}/end',
        'POST /api/auth/sessions/end-others',
        'POST /api/auth/logout/everywhere',
        'GET /api/auth/browsers',
        'POST /api/auth/browsers/{id}/forget',
        'POST /api/account/proof',
        'GET /api/account/changes',
        'POST /api/account/changes/{id}/cancel',
        'POST /api/account/secure',
        'GET /api/account/notices',
        'POST /api/account/notices/read',
        'GET /api/users/lookup',
        'POST /api/activity',
        'PATCH /api/activity/{id}',
        'GET /api/activity',
        'GET /api/prices',
        'GET /api/wallet/fees',
        'POST /api/paymaster',
        'POST /api/bundler/{chainId}',
        'GET /api/admin/sponsorships',
        'GET /api/events',
        'POST /api/dev/faucet',
        'POST /api/dev/chain',
        'GET /dev/outbox.json',
      ].sort(),
    );
    const start = document.paths['/api/auth/otp/start'].post;
    expect(start.requestBody.content['application/json'].schema.properties.channel.enum).toEqual([
      'sms',
      'email',
    ]);
    expect(start.responses['429']).toBeDefined();
    const config = document.paths['/api/config'].get.responses['200'].content['application/json'].schema;
    expect(config.required).toContain('rpcUrls');
    expect(config.properties.rpcUrls).toMatchObject({
      type: 'object',
      description: expect.stringContaining('RPC_URL_<chainId>'),
      additionalProperties: { type: 'string', format: 'uri' },
    });
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'dial_session',
    });
  });
});

/** What Chromium sends when it opens a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

describe('the web app', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dial-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Dial</title>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html at / with no-cache and the security headers', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const response = await t.get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<title>Dial</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
    expectPageSecurityHeaders(response);
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const response = await t.get('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectPageSecurityHeaders(response);
  });

  it('serves other files as they are', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const response = await t.get('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<svg');
  });

  it('answers any other GET outside /api and /dev with index.html (the app routes in the browser)', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const response = await t.get('/wallet/settings', { headers: { accept: BROWSER_ACCEPT } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Dial</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/send', '/send/review', '/receive', '/activity', '/add-funds', '/security', '/security/export'])(
    "opens the app's screen %s from its URL (a reload, a link) with index.html and the security headers",
    async (path) => {
      const t = await createTestApp(db(), { config: { webDistDir: dir } });
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await t.app.inject({
          method,
          url: `${path}?to=%2B447400123456&amount=0.1`,
          headers: { accept: BROWSER_ACCEPT },
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        if (method === 'GET') expect(response.body).toContain('<title>Dial</title>');
        expectPageSecurityHeaders(response);
      }
    },
  );

  it('answers a request for a screen that does not ask for HTML (a script, a bot) with 404 not_found', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    for (const accept of [undefined, 'application/json', '*/*', 'image/avif,image/webp,*/*']) {
      const response = await t.get('/robots.txt', accept === undefined ? {} : { headers: { accept } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().error.code).toBe('not_found');
      expectPageSecurityHeaders(response);
    }
  });

  it('keeps a JSON 404 for unknown /api paths even when a browser asks for HTML', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    for (const url of ['/api/unknown', '/api', '/dev/unknown', '/assets/gone-123.js']) {
      const response = await t.get(url, { headers: { accept: BROWSER_ACCEPT } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().error.code).toBe('not_found');
    }
  });

  it('keeps not_found for unknown /api and /dev paths and missing assets', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    for (const url of ['/api/unknown', '/dev/unknown', '/assets/gone-123.js']) {
      const response = await t.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });

  it('keeps the API errors in the catalogue shape while it serves the web app', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const unauthorized = await t.get('/api/me');
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json().error.code).toBe('unauthorized');
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('forbidden_origin');
    expectSecurityHeaders(forbidden);
    const invalid = await t.post('/api/auth/otp/start', { channel: 'fax', to: 'x' });
    expect(invalid.json().error.code).toBe('invalid_data');
  });

  it('does not serve files outside its folder', async () => {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    const response = await t.get('/../../etc/passwd');
    expect(response.body).not.toContain('root:');
  });
});
