import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { type RateLimiter, refuseOverLimit, windowStartMs } from './rateLimiter.js';

/**
 * The rate limiter over the `rate_limits` table, used when `REDIS_URL` is not set.
 *
 * One atomic upsert per event (`INSERT … ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING`), on
 * SQLite and PostgreSQL alike, so servers sharing one database share the counters and concurrent requests
 * cannot both slip under the limit. Refused events count too. When the stored window is older than the
 * current one the counter restarts at 1; a server whose clock lags never moves a window back. Old rows are
 * deleted by `sweepExpiredRows`. `peek` reads the counter alone.
 */
export function createSqlRateLimiter(db: Kysely<Database>): RateLimiter {
  return {
    async consume(key, limit, now) {
      const windowStart = new Date(windowStartMs(limit, now)).toISOString();
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
      return refuseOverLimit(key, limit, now, Number(row.count), Date.parse(row.window_start));
    },

    async peek(key, limit, now) {
      const startMs = windowStartMs(limit, now);
      const row = await db
        .selectFrom('rate_limits')
        .select(['count', 'window_start'])
        .where('key', '=', key)
        .executeTakeFirst();
      // By consume's rule: an older stored window is over, a newer one (a server whose clock is ahead) counts.
      const storedMs = row === undefined ? undefined : Date.parse(row.window_start);
      const counted =
        row !== undefined && storedMs !== undefined && storedMs >= startMs
          ? { count: Number(row.count), startMs: storedMs }
          : { count: 0, startMs };
      // What consume would answer for one more event, that event not counted.
      return refuseOverLimit(key, limit, now, counted.count + 1, counted.startMs) + 1;
    },
  };
}
