import type { Kysely } from 'kysely';
import type { Address, PublicClient } from 'viem';
import type { AppContext } from '../appContext.js';
import { chainClients, RPC_TIMEOUT_MS } from '../chain/chainReader.js';
import type { Database } from '../db/database.js';

/** What a watcher needs: the database, the clock, a client per chain, the USDC contract per chain. */
export interface ChainWatchDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** The chain's RPC client (`chainClients`); throws `ChainReadError` for a chain without one. */
  client: (chainId: number) => PublicClient;
  usdcAddress: (chainId: number) => Address | undefined;
}

/** The watcher's deps over the app's: a client per chain over the configured RPCs, each call timed out. */
export function createChainWatchDeps(ctx: AppContext): ChainWatchDeps {
  return {
    db: ctx.db,
    now: ctx.now,
    client: chainClients(ctx.config, RPC_TIMEOUT_MS),
    usdcAddress: (chainId) => ctx.chain.usdcAddress(chainId),
  };
}
