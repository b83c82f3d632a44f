import type { AppContext } from '../appContext.js';
import { chainClients, RPC_TIMEOUT_MS } from '../chain/chainReader.js';
import type { TypedApp } from '../http/typedApp.js';
import { registerBundlerRoutes } from './bundlerRoutes.js';
import { registerFeeRoutes } from './feeRoutes.js';
import { registerPaymasterRoutes } from './paymasterRoutes.js';
import { registerReportRoutes } from './reportRoutes.js';

/**
 * Sponsored fees (issue 29): the fee options (`GET /api/wallet/fees`), the ERC-7677 paymaster service
 * (`POST /api/paymaster`), the bundler proxy (`POST /api/bundler/:chainId`) and the operator's report
 * (`GET /api/admin/sponsorships`). Registered whatever the configuration: each says what is not offered.
 */
export function registerSponsorship(app: TypedApp, ctx: AppContext): void {
  const clientFor = chainClients(ctx.config, RPC_TIMEOUT_MS);
  registerFeeRoutes(app, ctx);
  registerPaymasterRoutes(app, ctx, clientFor);
  registerBundlerRoutes(app, ctx);
  registerReportRoutes(app, ctx);
}
