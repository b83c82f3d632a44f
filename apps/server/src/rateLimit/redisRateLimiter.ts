import { createHash } from 'node:crypto';
import { DialError, SECOND_MS } from '@dial/core';
import { REDIS_TIMEOUT_MS, type RedisClient } from './connectRedis.js';
import { type RateLimiter, refuseOverLimit, windowStartMs } from './rateLimiter.js';

/**
 * Counts one event in a fixed window, atomically (Redis runs a script alone), by the same rule as the SQL
 * limiter's upsert. The hash at KEYS[1] holds the counted window's `start` (ms) and its `count`. A stored
 * window older than the caller's restarts at 1; a newer or equal one counts on, so a server whose clock
 * lags never moves a window back. The key expires when the counted window ends by the caller's clock (a
 * relative PEXPIRE, so the Redis host's clock does not matter).
 *
 * ARGV: the caller's window start (ms), the window length (ms), the caller's now (ms).
 * Returns `{count, start}` of the counted window. Millisecond times are integers below 2^53: exact in Lua.
 */
const CONSUME_SCRIPT = `
local start = tonumber(ARGV[1])
local stored = tonumber(redis.call('HGET', KEYS[1], 'start'))
local count
if stored ~= nil and stored >= start then
  count = redis.call('HINCRBY', KEYS[1], 'count', 1)
  start = stored
else
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'count', 1)
  count = 1
end
redis.call('PEXPIRE', KEYS[1], math.max(1, start + tonumber(ARGV[2]) - tonumber(ARGV[3])))
return {count, start}
`;
const CONSUME_SHA1 = createHash('sha1').update(CONSUME_SCRIPT).digest('hex');

/**
 * The `Retry-After` (seconds) of a `503 rate_limit_unavailable`: long enough that clients do not hammer a
 * failing Redis, short enough that they retry soon after it reconnects (reconnection pauses are at most 5 s).
 */
export const RATE_LIMIT_UNAVAILABLE_RETRY_SECONDS = 5;

/** What {@link createRedisRateLimiter} needs besides the client. */
export interface RedisRateLimiterOptions {
  /** Put before every key (`dial:rate:`); tests use a unique one per run. */
  keyPrefix: string;
  /** Told about every failed Redis call (the request then gets `503 rate_limit_unavailable`). */
  onFailure?: (error: unknown) => void;
  /** How long to wait for Redis's answer; {@link REDIS_TIMEOUT_MS} by default. */
  timeoutMs?: number;
}

/**
 * The rate limiter over Redis, used when `REDIS_URL` is set: one script call per event (see
 * {@link CONSUME_SCRIPT}; `peek` reads the hash alone), so every server sharing the Redis shares the counters exactly. When Redis fails
 * or does not answer in time the event is refused with `503 rate_limit_unavailable`: a limit that cannot
 * be checked is never waved through, and it is never a 500.
 */
export function createRedisRateLimiter(client: RedisClient, options: RedisRateLimiterOptions): RateLimiter {
  /** The counted window that `call` reads, or `503 rate_limit_unavailable` when Redis fails. */
  const counted = async (key: string, call: Promise<unknown>) => {
    try {
      return parseReply(await answerWithin(call, options.timeoutMs ?? REDIS_TIMEOUT_MS));
    } catch (error) {
      options.onFailure?.(error);
      throw new DialError('rate_limit_unavailable', {
        retryAfterSeconds: RATE_LIMIT_UNAVAILABLE_RETRY_SECONDS,
        details: `rate limit ${key.split(':')[0]}: Redis failed`,
        cause: error,
      });
    }
  };

  return {
    async consume(key, limit, now) {
      const script = {
        keys: [options.keyPrefix + key],
        arguments: [
          String(windowStartMs(limit, now)),
          String(limit.windowSeconds * SECOND_MS),
          String(now.getTime()),
        ],
      };
      const call = client.evalSha(CONSUME_SHA1, script).catch((error: unknown) => {
        // Not cached on this Redis yet (the first call, or after a restart): send it whole once.
        if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
          return client.eval(CONSUME_SCRIPT, script);
        }
        throw error;
      });
      const { count, start } = await counted(key, call);
      return refuseOverLimit(key, limit, now, count, start);
    },

    async peek(key, limit, now) {
      const startMs = windowStartMs(limit, now);
      // No key (never counted, or expired with its window): nothing counted.
      const call = client
        .hmGet(options.keyPrefix + key, ['count', 'start'])
        .then(([count, start]) => [count ?? 0, start ?? startMs]);
      const stored = await counted(key, call);
      // By the script's rule: an older stored window is over, a newer one (a clock ahead) counts.
      const { count, start } = stored.start >= startMs ? stored : { count: 0, start: startMs };
      // What consume would answer for one more event, that event not counted.
      return refuseOverLimit(key, limit, now, count + 1, start) + 1;
    },
  };
}

/**
 * The answer of `call`, or a failure after `ms`: a Redis that accepts commands but never answers must not
 * hold requests. (The late answer, if any, is dropped; the count it made stays, as a refused event's would.)
 */
async function answerWithin<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `{count, start}` (the script's, or the hash's); anything else is a failure of Redis, not a reason to allow. */
function parseReply(reply: unknown): { count: number; start: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [count, start] = reply.map(Number);
    if (Number.isSafeInteger(count) && Number.isSafeInteger(start)) return { count: count!, start: start! };
  }
  throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
}
