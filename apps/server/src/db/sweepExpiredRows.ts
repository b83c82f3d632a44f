import { DAY_MS, DAY_SECONDS, HOUR_MS, SECOND_MS } from '@dial/core';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config/index.js';
import { longestWindowSeconds } from '../config/rateLimits.js';
import type { Database } from './database.js';
import { sessionIsLive } from './sessionLiveness.js';

/**
 * How long a browser stays known without being seen: a year, the life of its device cookie
 * (`auth/devices.ts`), which every sign-in renews.
 */
export const KNOWN_DEVICE_RETENTION_SECONDS = 365 * DAY_SECONDS;
/** How long the dev outbox keeps messages. */
const OUTBOX_RETENTION_MS = 7 * DAY_MS;
/**
 * How long wallet events stay replayable: a live stream resumed after one swept gets `reset` (and the
 * browser reloads), so this only bounds how long a browser may be away and still catch up event by event.
 */
export const WALLET_EVENT_RETENTION_MS = DAY_MS;
/** How long a device link is kept past its expiry (its sealed share with it), then deleted. */
export const DEVICE_LINK_RETENTION_MS = HOUR_MS;

/**
 * Deletes rows nothing will read again: expired one-time codes, wallet challenges, SIWE nonces and
 * proof-of-work uses, browsers not seen for longer than their device cookie lives, ended sessions (past their
 * absolute end or idle too long), rate-limit windows older than the longest window in `config.rateLimits`
 * (the table of `config/rateLimits.ts`), dev-outbox messages older than a week, and wallet events older than
 * {@link WALLET_EVENT_RETENTION_MS}, and device links {@link DEVICE_LINK_RETENTION_MS} past their expiry.
 * Correctness never depends
 * on it (every read checks expiry itself); it keeps the tables small.
 */
export async function sweepExpiredRows(
  db: Kysely<Database>,
  now: Date,
  config: Pick<AppConfig, 'rateLimits' | 'session'>,
): Promise<void> {
  const at = (offsetMs: number) => new Date(now.getTime() - offsetMs).toISOString();
  await db.deleteFrom('otp_codes').where('expires_at', '<=', at(0)).execute();
  await db.deleteFrom('proof_of_work_uses').where('expires_at', '<=', at(0)).execute();
  // A browser not seen for longer than its device cookie lives is no longer known.
  await db
    .deleteFrom('known_devices')
    .where('last_seen_at', '<=', at(KNOWN_DEVICE_RETENTION_SECONDS * SECOND_MS))
    .execute();
  await db.deleteFrom('wallet_challenges').where('expires_at', '<=', at(0)).execute();
  // Used nonces too: kept only so that a replay within their life is told `siwe_nonce_used`.
  await db.deleteFrom('siwe_nonces').where('expires_at', '<=', at(0)).execute();
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', at(0)).execute();
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.not(sessionIsLive(config.session.idleHours, now)(eb)))
    .execute();
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<=', at(longestWindowSeconds(config.rateLimits) * 1000))
    .execute();
  // On-ramp sandbox tokens live 5 minutes; kept a day for the record of what was paid.
  await db.deleteFrom('onramp_sessions').where('expires_at', '<=', at(DAY_MS)).execute();
  await db.deleteFrom('outbox_messages').where('created_at', '<=', at(OUTBOX_RETENTION_MS)).execute();
  await db.deleteFrom('wallet_events').where('created_at', '<=', at(WALLET_EVENT_RETENTION_MS)).execute();
  // Device links live 5 minutes; kept an hour past that so that both browsers still read how one ended.
  await db.deleteFrom('wallet_links').where('expires_at', '<=', at(DEVICE_LINK_RETENTION_MS)).execute();
}
