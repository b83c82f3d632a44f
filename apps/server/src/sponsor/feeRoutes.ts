import { type WalletFees, walletFeesRoute } from '@dial/api';
import { ENTRY_POINT_V08, SIMPLE_7702_ACCOUNT } from '@dial/core';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { readUsage, utcDay } from './sponsorStore.js';

/**
 * `GET /api/wallet/fees?chainId=`: how a send from this account's wallet pays its fee on that chain, for the
 * review screen: user operations where a bundler serves the chain, and the operator's payment ("Network fee:
 * free, paid by <name>", with the sponsored sends left today) or why not (`not_offered`, `account_limit`,
 * `daily_cap`). A hint only: `/api/paymaster` decides, under its locks.
 */
export function registerFeeRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    walletFeesRoute.url,
    { preHandler: app.requireUser, schema: walletFeesRoute.schema },
    async (request): Promise<WalletFees> => {
      const { chainId } = request.query;
      const settings = ctx.config.sponsorship;
      const userOperations = settings.bundlerUrls[chainId] !== undefined;
      const answer: WalletFees = {
        chainId,
        userOperations,
        entryPoint: userOperations ? ENTRY_POINT_V08 : null,
        implementation: userOperations ? SIMPLE_7702_ACCOUNT : null,
        sponsored: false,
        operatorName: null,
        sponsoredLeftToday: null,
        notSponsoredReason: 'not_offered',
      };
      const paymaster = settings.paymasters[chainId];
      const cap = settings.dailyCapsWei[chainId];
      const user = request.user!;
      if (
        !userOperations ||
        settings.calls === 'off' ||
        paymaster === undefined ||
        cap === undefined ||
        (paymaster.kind === 'dial' && settings.signerKey === null) ||
        user.wallet?.kind !== 'embedded'
      ) {
        return answer;
      }
      const usage = await readUsage(ctx.db, user.id, chainId, utcDay(ctx.now()));
      const left = Math.max(0, settings.accountDailyLimit - usage.accountCount);
      answer.sponsoredLeftToday = left;
      if (left === 0) return { ...answer, notSponsoredReason: 'account_limit' };
      if (usage.chainCostWei >= cap) return { ...answer, notSponsoredReason: 'daily_cap' };
      return {
        ...answer,
        sponsored: true,
        operatorName: settings.operatorName,
        notSponsoredReason: null,
      };
    },
  );
}
