import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import { secondsUntilWindowEnds } from '../rateLimit/rateLimiter.js';

/** What is left of the user's hourly recovery tries after one. */
export interface RecoveryTriesLeft {
  triesLeft: number;
  /** When none is left: the seconds until the next is allowed (what the next try's 429 says). */
  retryAfterSeconds?: number;
}

/**
 * Counts one recovery try against the user's hourly budget, or throws `too_many_requests`. Evaluating the
 * password OPRF and reporting a failed opening spend the same budget (each is a password try): one key,
 * said here once, so they can never drift into separate budgets. One try of a password is one of them:
 * an evaluation for a record hardened by the OPRF, a reported failure for an older one (or a passkey).
 *
 * The key is the user's id, not the session or the browser: signing in again elsewhere does not reset it.
 */
export async function consumeRecoveryTry(ctx: AppContext, userId: string): Promise<RecoveryTriesLeft> {
  const limit = ctx.config.rateLimits.walletRecoveryPerUser;
  const now = ctx.now();
  const triesLeft = await ctx.rateLimiter.consume(rateKey('walletRecoveryPerUser', userId), limit, now);
  return triesLeft > 0 ? { triesLeft } : { triesLeft, retryAfterSeconds: secondsUntilWindowEnds(limit, now) };
}
