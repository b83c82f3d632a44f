import type { WindowLimit } from '../auth/otpPolicy.js';

/**
 * Rate limits of the activity routes, per hour (no longer than the longest sign-in window, which is what
 * `sweepExpiredRows` keeps rate-limit rows for). Recording is limited per user so that one account cannot
 * fill the table, or another user's activity, with made-up transfers.
 */
export const ACTIVITY_LIMITS: Readonly<{ recordsPerUser: WindowLimit }> = Object.freeze({
  recordsPerUser: { max: 60, windowSeconds: 3600 },
});
