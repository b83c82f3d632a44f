import net from 'node:net';
import { ERROR_CATALOGUE } from '@dial/core';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AppConfig } from '../src/config/index.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { useTestDatabase } from './databases.js';
import { NEEDS_TEST_REDIS_URL, redisHostPort, testRedisUrl, useRedisKeyPrefix, viaProxy } from './redis.js';
import { startTcpProxy } from './tcpProxy.js';
import { createTestApp, ORIGIN, SANDBOX_ONRAMP, type TestApp, testConfig } from './testApp.js';

const IP = '203.0.113.9';

/** Asks `t` for a sign-in code to `to` from `ip`, like the web app. */
const start = (t: TestApp, to: string, ip = IP) =>
  t.post('/api/auth/otp/start', { channel: 'email', to }, { ip });

describe('REDIS_URL at start', () => {
  const db = useTestDatabase('sqlite');

  it('refuses to start when Redis cannot be reached, saying where and what to do, never the password', async () => {
    const port = await closedPort();
    const config = testConfig({
      redis: { url: `redis://:s3cret@127.0.0.1:${port}/0`, keyPrefix: 'dial-test:' },
    });
    const error = await buildApp(config, { db: db() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `REDIS_URL: could not connect to Redis at 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}). ` +
        'Start Redis, correct REDIS_URL, or unset it to keep rate limits in the database.',
    );
    expect((error as Error).message).not.toContain('s3cret');
  });
});

describe.runIf(testRedisUrl !== undefined)(
  `rate limits in Redis across servers ${NEEDS_TEST_REDIS_URL}`,
  () => {
    // Each server has a database of its own here, so only Redis can carry the counts from one to the other.
    const firstDb = useTestDatabase('sqlite');
    const secondDb = useTestDatabase('sqlite');
    const prefix = useRedisKeyPrefix();
    const withRedis = (url = testRedisUrl!): Partial<AppConfig> => ({
      redis: { url, keyPrefix: prefix() },
      rateLimits: { ...RATE_LIMITS, otpStartsPerIp: { max: 3, windowSeconds: 3600 } },
    });

    it('enforces the OTP start limit per IP across two servers sharing Redis', async () => {
      const a = await createTestApp(firstDb(), { config: withRedis() });
      const b = await createTestApp(secondDb(), { config: withRedis() });

      expect((await start(a, 'ada@example.com')).statusCode).toBe(200);
      expect((await start(b, 'bob@example.com')).statusCode).toBe(200);
      expect((await start(a, 'cy@example.com')).statusCode).toBe(200);
      for (const [t, to] of [
        [b, 'dee@example.com'],
        [a, 'eve@example.com'],
      ] as const) {
        const refused = await start(t, to);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe('too_many_requests');
        expect(refused.headers['retry-after']).toBe('3600');
      }
      // Another address is counted apart.
      expect((await start(b, 'dee@example.com', '198.51.100.7')).statusCode).toBe(200);
      expect(a.transport.sent.map((message) => message.to)).toEqual(['ada@example.com', 'cy@example.com']);
      expect(b.transport.sent.map((message) => message.to)).toEqual(['bob@example.com', 'dee@example.com']);
      // The databases hold no counters at all.
      expect(await firstDb().selectFrom('rate_limits').selectAll().execute()).toEqual([]);
      expect(await secondDb().selectFrom('rate_limits').selectAll().execute()).toEqual([]);

      // The next hour's window is open again, on both.
      a.clock.advance(3_600_000);
      b.clock.advance(3_600_000);
      expect((await start(b, 'eve@example.com')).statusCode).toBe(200);
      expect((await start(a, 'fay@example.com')).statusCode).toBe(200);
    });

    it('answers 503 rate_limit_unavailable while Redis is unreachable, sends nothing, and recovers', async () => {
      const proxy = await startTcpProxy(redisHostPort(testRedisUrl!));
      try {
        const t = await createTestApp(firstDb(), {
          config: {
            ...withRedis(viaProxy(testRedisUrl!, proxy.port)),
            // The sandbox checkout's form answers pages, not JSON; its chain is never reached here.
            onramp: SANDBOX_ONRAMP,
            localChain: { start: false, port: 0, rpcUrl: 'http://127.0.0.1:9' },
          },
        });
        expect((await start(t, 'ada@example.com')).statusCode).toBe(200);

        await proxy.cut();
        for (const to of ['bob@example.com', 'bob@example.com', 'cy@example.com']) {
          const down = await start(t, to);
          expect(down.statusCode).toBe(503);
          expect(down.json()).toEqual({
            error: {
              code: 'rate_limit_unavailable',
              message: ERROR_CATALOGUE.rate_limit_unavailable.message,
            },
          });
          // Clients back off for a few seconds rather than retry at once.
          expect(down.headers['retry-after']).toBe('5');
        }
        expect(t.transport.sent.map((message) => message.to)).toEqual(['ada@example.com']);
        const checkout = await t.app.inject({
          method: 'POST',
          url: '/onramp/sandbox/pay',
          headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'token=abc',
        });
        expect(checkout.statusCode).toBe(503);
        expect(checkout.headers['retry-after']).toBe('5');
        expect(checkout.headers['content-type']).toMatch(/^text\/html/);
        expect(checkout.body).toContain(ERROR_CATALOGUE.rate_limit_unavailable.message);

        await proxy.restore();
        // The client reconnects by itself within a few seconds.
        await vi.waitFor(async () => expect((await start(t, 'bob@example.com')).statusCode).toBe(200), {
          timeout: 15_000,
          interval: 250,
        });
        expect(t.transport.sent.map((message) => message.to)).toEqual(['ada@example.com', 'bob@example.com']);

        // Closing the app closes its Redis connections: the client and its subscriber (the live streams'
        // wake-ups).
        expect(proxy.connections()).toBe(2);
        await t.app.close();
        await vi.waitFor(() => expect(proxy.connections()).toBe(0));
      } finally {
        await proxy.close();
      }
    });
  },
);

/** A TCP port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
