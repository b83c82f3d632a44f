import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CATALOGUE, type ErrorCode } from '@dial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpLimits } from '../src/config/index.js';
import { useTestDatabase } from './databases.js';
import {
  type KeptConnection,
  listenOnLoopback,
  openConnection,
  type RawAnswer,
  rawExchange,
} from './rawHttp.js';
import { createTestApp } from './testApp.js';

// These are about the HTTP server, not storage: SQLite is enough.
const db = useTestDatabase('sqlite');

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: localhost:8080\r\n\r\n';

/** The catalogue's shape, the status its code has, and the security headers, on a raw answer. */
function expectCatalogueAnswer(
  answer: RawAnswer | Pick<RawAnswer, 'status' | 'headers' | 'body'>,
  code: ErrorCode,
) {
  expect(answer.status).toBe(ERROR_CATALOGUE[code].status);
  expect(JSON.parse(answer.body)).toEqual({ error: { code, message: ERROR_CATALOGUE[code].message } });
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  // The JSON policy where the answer is written outside Fastify's hooks or under /api, the pages' policy on
  // other paths (http.test.ts checks each in full).
  expect(answer.headers['content-security-policy']).toMatch(/^default-src '(none|self)'/);
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(answer.headers['cache-control']).toBe('no-store');
}

async function listeningApp(http: Partial<HttpLimits> = {}, extra: { webDistDir?: string } = {}) {
  const lines: string[] = [];
  const t = await createTestApp(db(), {
    config: {
      http: {
        requestTimeoutSeconds: 2,
        headersTimeoutSeconds: 1,
        idleTimeoutSeconds: 2,
        maxConnections: 100,
        ...http,
      },
      logLevel: 'warn',
      ...extra,
    },
    deps: { logStream: { write: (line) => void lines.push(line) } },
  });
  const port = await listenOnLoopback(t.app);
  return { t, port, lines };
}

describe('requests that cannot be read answer from the catalogue, with the security headers', () => {
  const json = '{"channel":"email","to":';
  it.each([
    [
      'over-size headers',
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'headers_too_large',
    ],
    ['an over-long URL', `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 'headers_too_large'],
    ['a method node:http cannot parse (FOO)', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 'method_not_allowed'],
    ['a lower-case method', 'get /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 'method_not_allowed'],
    [
      'TRACE, which no route answers',
      'TRACE /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'method_not_allowed',
    ],
    ['PROPFIND', 'PROPFIND / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'method_not_allowed'],
    [
      'DELETE, which no route answers',
      'DELETE /api/wallet HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'method_not_allowed',
    ],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 'method_not_allowed'],
    [
      'a Content-Length that is not a number',
      'POST /api/auth/otp/start HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n',
      'invalid_data',
    ],
    [
      'Content-Length with Transfer-Encoding (request smuggling)',
      'POST /api/auth/otp/start HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'invalid_data',
    ],
    [
      'a header line without a colon',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n',
      'invalid_data',
    ],
    [
      'broken JSON',
      `POST /api/auth/otp/start HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:8080\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
      'invalid_data',
    ],
    ['a malformed URL', 'GET /api/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'invalid_data'],
  ] as const)('answers %s with its catalogue code', async (_name, request, code) => {
    const { t, port } = await listeningApp();
    const answer = await rawExchange(port, request);
    expectCatalogueAnswer(answer, code);
    if (code === 'method_not_allowed') expect(answer.headers.allow).toBe('GET, HEAD, PATCH, POST, PUT');
    expect(t.transport.sent).toHaveLength(0);
  });

  describe('with the web app built', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'dial-web-'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Dial</title>');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each(['//etc/passwd', '/..%5c..%5cetc%5cpasswd'])(
      'answers the static path %s, which leaves the folder, with 404 not_found (not 403 invalid_data)',
      async (path) => {
        const { port } = await listeningApp({}, { webDistDir: dir });
        const answer = await rawExchange(
          port,
          `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        );
        expectCatalogueAnswer(answer, 'not_found');
        expect(answer.body).not.toContain('root:');
      },
    );
  });
});

describe('timeouts against slow clients (REQUEST_TIMEOUT_SECONDS=2, HEADERS_TIMEOUT_SECONDS=1)', () => {
  it('cuts off a body sent one byte at a time (slow loris) with 408 request_timeout', async () => {
    const { t, port } = await listeningApp();
    const body = JSON.stringify({ channel: 'email', to: 'slow.loris@example.com' });
    const answer = await rawExchange(
      port,
      'POST /api/auth/otp/start HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:8080\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      // Would take 250 ms × 49 bytes ≈ 12 s to send.
      { trickle: body, intervalMs: 250, waitMs: 10_000 },
    );
    expect(answer.closedByServer).toBe(true);
    expectCatalogueAnswer(answer, 'request_timeout');
    // 2 s, checked every 0.5 s, and some slack for a busy machine.
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(answer.closedAfterMs).toBeLessThan(4000);
    expect(t.transport.sent).toHaveLength(0);
  });

  it('cuts off headers sent one byte at a time with 408 request_timeout', async () => {
    const { port } = await listeningApp();
    const answer = await rawExchange(port, 'GET /api/health HTTP/1.1\r\n', {
      trickle: `X-Slow: ${'a'.repeat(100)}\r\n\r\n`,
      intervalMs: 100,
      waitMs: 10_000,
    });
    expect(answer.closedByServer).toBe(true);
    expectCatalogueAnswer(answer, 'request_timeout');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(answer.closedAfterMs).toBeLessThan(3000);
  });

  it('closes a connection that sends nothing', async () => {
    const { port } = await listeningApp();
    const answer = await rawExchange(port, '', { waitMs: 10_000 });
    expect(answer.closedByServer).toBe(true);
    expect(answer.closedAfterMs).toBeLessThan(3000);
  });

  it('closes a kept-alive connection after IDLE_TIMEOUT_SECONDS without a request', async () => {
    const { port } = await listeningApp();
    const answer = await rawExchange(port, HEALTH, { waitMs: 10_000 });
    expect(answer.status).toBe(200);
    expect(answer.headers['keep-alive']).toBe('timeout=2');
    expect(answer.closedByServer).toBe(true);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(answer.closedAfterMs).toBeLessThan(4000);
  });

  it('still serves a request that arrives in time', async () => {
    const { port } = await listeningApp();
    const body = JSON.stringify({ channel: 'email', to: 'steady@example.com' });
    const answer = await rawExchange(
      port,
      'POST /api/auth/otp/start HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:8080\r\nConnection: close\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      { trickle: body, intervalMs: 10 },
    );
    expect(answer.status).toBe(200);
  });
});

describe('the connection cap (MAX_CONNECTIONS=3)', () => {
  it('refuses connections beyond it while the first ones stay served, and warns once', async () => {
    const { port, lines } = await listeningApp({
      maxConnections: 3,
      idleTimeoutSeconds: 30,
      requestTimeoutSeconds: 30,
      headersTimeoutSeconds: 30,
    });
    const kept: KeptConnection[] = [];
    for (let i = 0; i < 3; i++) {
      const connection = await openConnection(port);
      kept.push(connection);
      expect((await connection.send(HEALTH)).status).toBe(200);
    }

    for (let i = 0; i < 2; i++) {
      const refused = await rawExchange(port, HEALTH, { waitMs: 3000 });
      expect(refused.closedByServer).toBe(true);
      expect(refused.status).toBeUndefined();
      expect(refused.closedAfterMs).toBeLessThan(1000);
    }

    for (const connection of kept) {
      expect((await connection.send(HEALTH)).status).toBe(200);
      expect(connection.isClosed()).toBe(false);
    }
    const warnings = lines.filter((line) => line.includes('MAX_CONNECTIONS (3) reached'));
    expect(warnings).toHaveLength(1);

    // A slot that frees up is served again.
    kept.pop()?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      (await rawExchange(port, HEALTH.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).status,
    ).toBe(200);
    for (const connection of kept) connection.close();
  });
});

describe('development mode on a non-loopback HOST (DEV_ALLOW_REMOTE=true)', () => {
  async function warningsFor(config: { environment: 'development' | 'production'; host: string }) {
    const lines: string[] = [];
    await createTestApp(db(), {
      config: { ...config, devAllowRemote: config.environment === 'development', logLevel: 'warn' },
      deps: { logStream: { write: (line) => void lines.push(line) } },
    });
    return lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.msg.includes('dev outbox'));
  }

  it('warns at start that anyone who can reach the port can read every sign-in code', async () => {
    const warnings = await warningsFor({ environment: 'development', host: '0.0.0.0' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toMatch(
      /^HOST=0\.0\.0\.0 \(DEV_ALLOW_REMOTE=true\): the dev outbox at \/dev\/outbox shows every sign-in code/,
    );
  });

  it('does not warn on loopback, nor in production (no dev outbox)', async () => {
    expect(await warningsFor({ environment: 'development', host: '127.0.0.1' })).toEqual([]);
    expect(await warningsFor({ environment: 'production', host: '0.0.0.0' })).toEqual([]);
  });
});
