import { DialError } from '@dial/core';
import { type Kysely, sql } from 'kysely';
import type { WindowLimit } from '../auth/otpPolicy.js';
import type { Database } from '../db/database.js';

/**
 * Counts one event against a fixed-window limit kept in the database, and refuses it with
 * `too_many_requests` (and the seconds until the window ends) when it is over the limit.
 *
 * One atomic upsert per event (`INSERT … ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING`), on
 * SQLite and PostgreSQL alike, so servers sharing one database share the counters and concurrent requests
 * cannot both slip under the limit. Refused events count too, so hammering does not reopen the window.
 * When the stored window is older than the current one the counter restarts at 1; a server whose clock
 * lags never moves a window back.
 *
 * @param key - The limit and its subject, e.g. `otp-start:ip:203.0.113.9`.
 * @throws {DialError} `too_many_requests` with `retryAfterSeconds`.
 */
export async function consumeRateLimit(
  db: Kysely<Database>,
  key: string,
  limit: WindowLimit,
  now: Date,
): Promise<void> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start >= excluded.window_start then rate_limits.count + 1 else 1 end`,
        window_start: sql<string>`case when rate_limits.window_start >= excluded.window_start then rate_limits.window_start else excluded.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  if (Number(row.count) > limit.max) {
    const endsAt = Date.parse(row.window_start) + windowMs;
    throw new DialError('too_many_requests', {
      retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
      details: `rate limit ${key.split(':')[0]}`,
    });
  }
}
