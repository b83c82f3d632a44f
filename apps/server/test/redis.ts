import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach } from 'vitest';
import { connectRedis } from '../src/rateLimit/connectRedis.js';

/**
 * The Redis the Redis cases run against: `TEST_REDIS_URL`, e.g. `redis://127.0.0.1:6379/15` (`.ci/run` sets
 * it). Unset (a fresh machine without Redis), those cases are skipped and say so in their title.
 */
export const testRedisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;

/** Ends the title of a suite that runs only with {@link testRedisUrl}. */
export const NEEDS_TEST_REDIS_URL =
  '(needs TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/15; skipped without it)';

/**
 * Gives every test of the enclosing `describe` a Redis key prefix of its own, under one prefix for this
 * run (`dial-test:<uuid>:`), and afterwards deletes exactly the keys under the run's prefix. Never FLUSHALL:
 * the Redis may be shared.
 */
export function useRedisKeyPrefix(): () => string {
  const runPrefix = `dial-test:${randomUUID()}:`;
  let tests = 0;
  let current: string | undefined;
  beforeEach(() => {
    tests += 1;
    current = `${runPrefix}${tests}:`;
  });
  afterAll(async () => {
    if (testRedisUrl === undefined) return;
    const client = await connectRedis(testRedisUrl);
    try {
      for await (const keys of client.scanIterator({ MATCH: `${runPrefix}*`, COUNT: 500 })) {
        if (keys.length > 0) await client.del(keys);
      }
    } finally {
      client.destroy();
    }
  });
  return () => {
    if (current === undefined) throw new Error('the Redis key prefix exists only inside a test');
    return current;
  };
}

/** The host and port of a redis:// URL. */
export function redisHostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 6379) };
}

/** The same Redis URL (credentials, database) through a proxy on 127.0.0.1. */
export function viaProxy(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.href;
}
