import type { WindowLimit } from '../auth/otpPolicy.js';

/**
 * Rate limits of the activity routes, per hour (no longer than the longest sign-in window, which is what
 * `sweepExpiredRows` keeps rate-limit rows for). Recording is limited per user so that one account cannot
 * fill the table with made-up transfers, and since each record and each "check now" reads the chain, so
 * that one account cannot make the server hammer the RPC.
 */
export const ACTIVITY_LIMITS: Readonly<{ recordsPerUser: WindowLimit; checksPerUser: WindowLimit }> =
  Object.freeze({
    recordsPerUser: { max: 60, windowSeconds: 3600 },
    checksPerUser: { max: 120, windowSeconds: 3600 },
  });
