import { DialError } from '@dial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateKey } from '../src/config/rateKey.js';
import type { WindowLimit } from '../src/config/rateLimits.js';
import { connectRedis, type RedisClient } from '../src/rateLimit/connectRedis.js';
import type { RateLimiter } from '../src/rateLimit/rateLimiter.js';
import { createRedisRateLimiter } from '../src/rateLimit/redisRateLimiter.js';
import { createSqlRateLimiter } from '../src/rateLimit/sqlRateLimiter.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { NEEDS_TEST_REDIS_URL, redisHostPort, testRedisUrl, useRedisKeyPrefix, viaProxy } from './redis.js';
import { startTcpProxy } from './tcpProxy.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const limit: WindowLimit = { max: 3, windowSeconds: 60 };
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
/** A bare key: these tests are of the limiters, whatever names the routes' keys (`rateKey`). */
const testKey = (text: string) => text as RateKey;

/** One limiter implementation over a fresh store, for the shared cases. */
interface LimiterUnderTest {
  /** Two limiters over the same store, as two servers behind a load balancer have. */
  limiters(): [RateLimiter, RateLimiter];
  /** What the store holds for `key`: the counted window's start and its count. */
  stored(key: string): Promise<{ windowStart: string; count: number } | undefined>;
}

/** The behaviour every {@link RateLimiter} must have, whatever keeps its counters. */
function describeRateLimiter(subject: () => LimiterUnderTest): void {
  const consume = (key: string, now: Date, which = 0) =>
    subject().limiters()[which]!.consume(testKey(key), limit, now);
  const refusal = (key: string, now: Date) =>
    consume(key, now).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('allows events under the limit and counts each, saying how many more the window allows', async () => {
    await expect(consume('k', NOW)).resolves.toBe(2);
    await expect(consume('k', at(1_000))).resolves.toBe(1);
    expect(await subject().stored('k')).toEqual({ windowStart: NOW.toISOString(), count: 2 });
  });

  it('allows the event that reaches the limit and refuses the next, with the seconds left in the window', async () => {
    for (let i = 0; i < 2; i++) await consume('k', NOW);
    await expect(consume('k', at(10_000))).resolves.toBe(0);
    const refused = await refusal('k', at(15_000));
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'too_many_requests', status: 429, retryAfterSeconds: 45 });
    // Rounded up, and never 0 in the window's last second.
    expect(await refusal('k', at(15_500))).toMatchObject({ retryAfterSeconds: 45 });
    expect(await refusal('k', at(59_999))).toMatchObject({ retryAfterSeconds: 1 });
  });

  it('counts refused events too, so hammering does not reopen the window', async () => {
    for (let i = 0; i < 6; i++) await consume('k', NOW).catch(() => {});
    expect(await subject().stored('k')).toEqual({ windowStart: NOW.toISOString(), count: 6 });
    expect(await refusal('k', at(30_000))).toMatchObject({
      code: 'too_many_requests',
      retryAfterSeconds: 30,
    });
  });

  it('starts over in the next window', async () => {
    for (let i = 0; i < 4; i++) await consume('k', NOW).catch(() => {});
    for (let i = 0; i < 3; i++) await consume('k', at(60_000 + i));
    expect(await subject().stored('k')).toEqual({ windowStart: at(60_000).toISOString(), count: 3 });
    expect(await refusal('k', at(61_000))).toMatchObject({
      code: 'too_many_requests',
      retryAfterSeconds: 59,
    });
  });

  it('keeps separate counters per key', async () => {
    for (let i = 0; i < 3; i++) await consume('a', NOW);
    await expect(consume('b', NOW)).resolves.toBe(2);
    expect(await refusal('a', NOW)).toMatchObject({ code: 'too_many_requests' });
  });

  it('holds the limit exactly under concurrent events from two servers sharing the store', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => consume('k', NOW, i % 2)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'too_many_requests' });
    }
    expect(await subject().stored('k')).toEqual({ windowStart: NOW.toISOString(), count: 20 });
  });

  it('never moves a window back when a server’s clock lags', async () => {
    await consume('k', at(60_000), 0);
    await consume('k', NOW, 1);
    await consume('k', NOW, 1);
    expect(await subject().stored('k')).toEqual({ windowStart: at(60_000).toISOString(), count: 3 });
    // The lagging server is told to wait until the later window ends, by its own clock.
    expect(await refusal('k', NOW)).toMatchObject({ code: 'too_many_requests', retryAfterSeconds: 120 });
  });

  describe('peek', () => {
    const peek = (key: string, now: Date, which = 0) =>
      subject().limiters()[which]!.peek(testKey(key), limit, now);

    it('says how many more events the window allows, and counts nothing', async () => {
      await expect(peek('k', NOW)).resolves.toBe(3);
      expect(await subject().stored('k')).toBeUndefined();
      await consume('k', NOW);
      await expect(peek('k', at(1_000), 1)).resolves.toBe(2);
      await expect(peek('k', at(2_000))).resolves.toBe(2);
      expect(await subject().stored('k')).toEqual({ windowStart: NOW.toISOString(), count: 1 });
    });

    it('refuses as consume would refuse the next event once the window is spent, counting nothing', async () => {
      for (let i = 0; i < 3; i++) await consume('k', NOW);
      const refused = await peek('k', at(15_000)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DialError);
      expect(refused).toMatchObject({ code: 'too_many_requests', status: 429, retryAfterSeconds: 45 });
      expect(await subject().stored('k')).toEqual({ windowStart: NOW.toISOString(), count: 3 });
    });

    it('reads an ended window as empty, and a later one (a lagging clock) as consume counts it', async () => {
      for (let i = 0; i < 3; i++) await consume('k', NOW);
      await expect(peek('k', at(60_000))).resolves.toBe(3);
      await consume('later', at(60_000));
      await expect(peek('later', NOW)).resolves.toBe(2);
    });
  });
}

describe.each(DIALECTS)('the SQL rate limiter on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  it(`runs on ${dialectLabel(dialect)}`, () => {
    expect(db()).toBeDefined();
  });
  describeRateLimiter(() => ({
    limiters: () => [createSqlRateLimiter(db()), createSqlRateLimiter(db())],
    async stored(key) {
      const row = await db().selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
      return row === undefined ? undefined : { windowStart: row.window_start, count: Number(row.count) };
    },
  }));
});

describe.runIf(testRedisUrl !== undefined)(`the Redis rate limiter ${NEEDS_TEST_REDIS_URL}`, () => {
  const prefix = useRedisKeyPrefix();
  // Two connections, as two servers have.
  let clients: [RedisClient, RedisClient];
  beforeAll(async () => {
    clients = [await connectRedis(testRedisUrl!), await connectRedis(testRedisUrl!)];
  });
  afterAll(() => {
    for (const client of clients) client.destroy();
  });

  describeRateLimiter(() => ({
    limiters: () => [
      createRedisRateLimiter(clients[0], { keyPrefix: prefix() }),
      createRedisRateLimiter(clients[1], { keyPrefix: prefix() }),
    ],
    async stored(key) {
      const hash = await clients[0].hGetAll(prefix() + key);
      if (hash.start === undefined) return undefined;
      return { windowStart: new Date(Number(hash.start)).toISOString(), count: Number(hash.count) };
    },
  }));

  it('lets the key expire when the counted window ends, by the caller’s clock', async () => {
    const limiter = createRedisRateLimiter(clients[0], { keyPrefix: prefix() });
    await limiter.consume(testKey('k'), limit, at(15_000));
    const ttl = await clients[0].pTTL(`${prefix()}k`);
    expect(ttl).toBeGreaterThan(44_000);
    expect(ttl).toBeLessThanOrEqual(45_000);
  });

  it('answers rate_limit_unavailable (503), never allows, when Redis fails', async () => {
    const client = await connectRedis(testRedisUrl!);
    client.destroy();
    const failures: unknown[] = [];
    const limiter = createRedisRateLimiter(client, {
      keyPrefix: prefix(),
      onFailure: (e) => failures.push(e),
    });
    const error = await limiter.consume(testKey('k'), limit, NOW).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DialError);
    expect(error).toMatchObject({ code: 'rate_limit_unavailable', status: 503 });
    const peeked = await limiter.peek(testKey('k'), limit, NOW).catch((caught: unknown) => caught);
    expect(peeked).toBeInstanceOf(DialError);
    expect(peeked).toMatchObject({ code: 'rate_limit_unavailable', status: 503 });
    expect(failures).toHaveLength(2);
  });

  it('answers rate_limit_unavailable when Redis stops answering, after the command timeout', async () => {
    const proxy = await startTcpProxy(redisHostPort(testRedisUrl!));
    try {
      const client = await connectRedis(viaProxy(testRedisUrl!, proxy.port));
      try {
        const limiter = createRedisRateLimiter(client, { keyPrefix: prefix(), timeoutMs: 500 });
        await limiter.consume(testKey('k'), limit, NOW);
        proxy.silence();
        const started = Date.now();
        const error = await limiter.consume(testKey('k'), limit, NOW).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'rate_limit_unavailable' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(490);
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        client.destroy();
      }
    } finally {
      await proxy.close();
    }
  });
});
