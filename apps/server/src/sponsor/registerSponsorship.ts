import { DAY_MS } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { chainClients, RPC_TIMEOUT_MS } from '../chain/chainReader.js';
import type { TypedApp } from '../http/typedApp.js';
import { runWhileOpen, startRepeatingTask } from '../system/repeatingTask.js';
import { SETTLE_BATCH, settleSponsorships } from './actualCost.js';
import { registerBundlerRoutes } from './bundlerRoutes.js';
import { registerFeeRoutes } from './feeRoutes.js';
import { registerPaymasterRoutes } from './paymasterRoutes.js';
import { registerReportRoutes } from './reportRoutes.js';
import { listUnsettledSponsorships, utcDay } from './sponsorStore.js';

/** How often each server reads the actual cost of the last two days' sponsorships from the chain. */
export const SETTLE_INTERVAL_MS = 60_000;

/**
 * Sponsored fees (issue 29): the fee options (`GET /api/wallet/fees`), the ERC-7677 paymaster service
 * (`POST /api/paymaster`), the bundler proxy (`POST /api/bundler/:chainId`) and the operator's report
 * (`GET /api/admin/sponsorships`). Registered whatever the configuration: each says what is not offered. A
 * timer reads the recent sponsorships' actual costs from the chain every `settleIntervalMs`.
 */
export function registerSponsorship(
  app: TypedApp,
  ctx: AppContext,
  settleIntervalMs: number = SETTLE_INTERVAL_MS,
): void {
  const clientFor = chainClients(ctx.config, RPC_TIMEOUT_MS);
  registerFeeRoutes(app, ctx);
  registerPaymasterRoutes(app, ctx, clientFor);
  registerBundlerRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  // The actual costs, read in the background too (the report reads what is still missing): only where some
  // chain's fees are paid. Idempotent, so servers reading the same rows at once only repeat a write.
  if (Object.keys(ctx.config.sponsorship.paymasters).length > 0) {
    runWhileOpen(app, () =>
      startRepeatingTask(
        async () => {
          const from = utcDay(new Date(ctx.now().getTime() - DAY_MS));
          await settleSponsorships(ctx, await listUnsettledSponsorships(ctx.db, from, SETTLE_BATCH), app.log);
        },
        settleIntervalMs,
        (error) => app.log.error({ err: error }, "reading sponsorships' costs failed"),
      ),
    );
  }
}
