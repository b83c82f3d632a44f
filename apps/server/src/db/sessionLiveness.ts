import { HOUR_MS } from '@dial/core';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from './database.js';
import { storedTime } from './storedTime.js';

/**
 * Whether a session is live: the one rule, written here only. A session is live until its absolute end
 * (`expires_at`, `SESSION_MAX_DAYS` after it started) and until it has gone `idleHours` (`SESSION_IDLE_HOURS`)
 * without a request (`last_seen_at`); ended, it is refused, left out of every list and count, and swept.
 * Given as times ({@link isLiveAt}), as a row ({@link isSessionLive}) and as SQL ({@link sessionIsLive}).
 */

/** Whether a session that ends at `expiresAt` and was last seen at `lastSeenAt` (ms) is live at `now` (ms). */
export function isLiveAt(expiresAt: number, lastSeenAt: number, idleHours: number, now: number): boolean {
  return expiresAt > now && lastSeenAt + idleHours * HOUR_MS > now;
}

/** Whether a session's row (its stored times) is live at `now`. */
export function isSessionLive(
  row: { readonly expires_at: string; readonly last_seen_at: string },
  idleHours: number,
  now: Date,
): boolean {
  return isLiveAt(storedTime(row.expires_at), storedTime(row.last_seen_at), idleHours, now.getTime());
}

/**
 * The same rule in SQL, for `where`: `.where(sessionIsLive(idleHours, now))` keeps live sessions,
 * `.where((eb) => eb.not(sessionIsLive(idleHours, now)(eb)))` ended ones. Stored times are `toISOString()`
 * text, which sorts as the times do.
 */
export function sessionIsLive(
  idleHours: number,
  now: Date,
): (eb: ExpressionBuilder<Database, 'sessions'>) => Expression<SqlBool> {
  const endsAfter = now.toISOString();
  const seenAfter = new Date(now.getTime() - idleHours * HOUR_MS).toISOString();
  return (eb) =>
    eb.and([eb('sessions.expires_at', '>', endsAfter), eb('sessions.last_seen_at', '>', seenAfter)]);
}
