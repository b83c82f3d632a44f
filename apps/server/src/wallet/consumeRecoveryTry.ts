import type { AppContext } from '../appContext.js';

/**
 * Counts one recovery try against the user's hourly budget, or throws `too_many_requests`. Fetching the
 * recovery record, evaluating the password OPRF and reporting a failed opening all spend the same budget
 * (each is a password try): one key, said here once, so they can never drift into separate budgets.
 */
export async function consumeRecoveryTry(ctx: AppContext, userId: string): Promise<void> {
  await ctx.rateLimiter.consume(
    `recovery:user:${userId}`,
    ctx.config.rateLimits.walletRecoveryPerUser,
    ctx.now(),
  );
}
