import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { RedisClient } from '../rateLimit/connectRedis.js';

/**
 * How long each readiness check may take. Short, so a load balancer's probe gets an answer well within its
 * own timeout even when a service hangs.
 */
export const READINESS_TIMEOUT_MS = 1_000;

/** The state of each part `GET /api/ready` checks; `off` for Redis when `REDIS_URL` is not set. */
export interface Readiness {
  database: 'ok' | 'failed';
  redis: 'ok' | 'failed' | 'off';
}

/** Whether every checked part answered. */
export function isReady(readiness: Readiness): boolean {
  return readiness.database === 'ok' && readiness.redis !== 'failed';
}

/**
 * Checks, side by side, that the database answers a trivial query and that Redis (when there is one)
 * answers PING, each within `timeoutMs`. Never throws: a failure is reported to `onFailure` (for the log)
 * and shows as `failed`, so the answer never carries an error message or a connection string.
 */
export async function checkReadiness(options: {
  db: Kysely<Database>;
  redis: RedisClient | null;
  timeoutMs?: number;
  onFailure?: (part: 'database' | 'redis', error: unknown) => void;
}): Promise<Readiness> {
  const ms = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const check = async (part: 'database' | 'redis', probe: () => Promise<unknown>) => {
    try {
      await within(probe(), ms, part);
      return 'ok' as const;
    } catch (error) {
      options.onFailure?.(part, error);
      return 'failed' as const;
    }
  };
  const { redis } = options;
  const [database, redisState] = await Promise.all([
    check('database', () => sql`select 1`.execute(options.db)),
    redis === null ? Promise.resolve('off' as const) : check('redis', () => redis.ping()),
  ]);
  return { database, redis: redisState };
}

/** `call`, or a failure after `ms` (the late answer, if any, is dropped). */
async function within<T>(call: Promise<T>, ms: number, part: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${part} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
