import { DialError, SECOND_MS } from '@dial/core';
import type { RateKey } from '../config/rateKey.js';
import type { WindowLimit } from '../config/rateLimits.js';

/**
 * Counts events against fixed-window limits kept outside the server's memory (the database, or Redis when
 * `REDIS_URL` is set), so any number of servers behind a load balancer share the same counters.
 */
export interface RateLimiter {
  /**
   * Counts one event against `limit` for `key`, and refuses it when the window already holds `limit.max`
   * events. Refused events count too, so hammering does not reopen the window.
   *
   * @param key - The limit and its subject (`rateKey`), e.g. `otp-start:ip:203.0.113.9`.
   * @param now - The caller's clock; the window is `now` rounded down to a multiple of the window length.
   * @returns How many more events the window allows after this one (0 when this one reached the limit).
   * @throws {DialError} `too_many_requests` with `retryAfterSeconds` (until the window ends);
   *   `rate_limit_unavailable` when the counters cannot be reached (never "allow everything").
   */
  consume(key: RateKey, limit: WindowLimit, now: Date): Promise<number>;

  /**
   * Reads how many more events the window allows for `key`, counting nothing, and refuses as
   * {@link consume} would refuse the next event when there is none left. For a limit that counts only
   * failures (consumed once an attempt has failed) and must stop a spent subject before the attempt's work.
   *
   * @throws {DialError} `too_many_requests` with `retryAfterSeconds`; `rate_limit_unavailable`.
   */
  peek(key: RateKey, limit: WindowLimit, now: Date): Promise<number>;
}

/** The start of the fixed window `now` falls in, in milliseconds since the epoch. */
export function windowStartMs(limit: WindowLimit, now: Date): number {
  const windowMs = limit.windowSeconds * SECOND_MS;
  return Math.floor(now.getTime() / windowMs) * windowMs;
}

/** The whole seconds from `now` until the window that started at `startMs` ends, at least 1: a 429's wait. */
export function secondsUntilWindowEnds(
  limit: WindowLimit,
  now: Date,
  startMs = windowStartMs(limit, now),
): number {
  const endsAt = startMs + limit.windowSeconds * SECOND_MS;
  return Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
}

/**
 * Refuses the event when `count` (this one included) is over the limit, with the whole seconds until the
 * counted window (which started at `startMs`) ends, at least 1; else returns how many more events the
 * window allows.
 */
export function refuseOverLimit(
  key: string,
  limit: WindowLimit,
  now: Date,
  count: number,
  startMs: number,
): number {
  if (count <= limit.max) return limit.max - count;
  throw new DialError('too_many_requests', {
    retryAfterSeconds: secondsUntilWindowEnds(limit, now, startMs),
    details: `rate limit ${key.split(':')[0]}`,
  });
}
