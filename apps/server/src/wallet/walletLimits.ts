import type { WindowLimit } from '../auth/otpPolicy.js';

/**
 * Rate limits of the wallet routes, per hour (no longer than the longest sign-in window, which is what
 * `sweepExpiredRows` keeps rate-limit rows for).
 *
 * Recovery: the recovery share is encrypted in the browser under a key made from both scrypt(password) and
 * the OPRF output of the password under the user's server-held key (`POST /api/wallet/recovery/oprf`), so
 * whoever obtains the ciphertext (a stolen session, a copy of the database) cannot check a guess offline:
 * each guess needs an evaluation here. This limit is what bounds those guesses: every evaluation (setup or
 * recovery alike), every `GET /api/wallet/recovery` (it hands out the ciphertext) and every wrong password
 * the browser reports for an older scrypt-only record (`POST /api/wallet/recovery/failed`) counts against
 * the same per-user budget.
 *
 * Challenges: each `POST /api/wallet/challenge` stores a row until it is used or expires, so they are
 * limited per user.
 *
 * Look-up: a phone number tells whether that person has a Dial wallet, so look-ups are limited per user
 * and per client address against enumeration.
 */
export const WALLET_LIMITS: Readonly<{
  recoveryPerUser: WindowLimit;
  lookupsPerUser: WindowLimit;
  lookupsPerIp: WindowLimit;
  challengesPerUser: WindowLimit;
}> = Object.freeze({
  recoveryPerUser: { max: 10, windowSeconds: 3600 },
  lookupsPerUser: { max: 30, windowSeconds: 3600 },
  lookupsPerIp: { max: 60, windowSeconds: 3600 },
  // Each challenge is a row until it is used or swept: enough for many tabs and retries, not for a flood.
  challengesPerUser: { max: 60, windowSeconds: 3600 },
});
