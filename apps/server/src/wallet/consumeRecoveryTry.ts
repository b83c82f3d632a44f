import type { AppContext } from '../appContext.js';

/**
 * Counts one recovery try against the user's hourly budget, or throws `too_many_requests`. Fetching the
 * recovery record, evaluating the password OPRF and reporting a failed opening all spend the same budget
 * (each is a password try): one key, said here once, so they can never drift into separate budgets.
 *
 * The key is the user's id, not the session or the browser: signing in again elsewhere does not reset it.
 *
 * @returns How many tries the hour still allows after this one.
 */
export async function consumeRecoveryTry(ctx: AppContext, userId: string): Promise<number> {
  return ctx.rateLimiter.consume(
    `recovery:user:${userId}`,
    ctx.config.rateLimits.walletRecoveryPerUser,
    ctx.now(),
  );
}
