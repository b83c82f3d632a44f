import { LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import type { AppConfig, ChainWatchMode } from '../config/index.js';

/** A chain the watcher reads, and how. */
export interface WatchedChain {
  chainId: number;
  mode: Exclude<ChainWatchMode, 'off'>;
}

/**
 * The chains this server watches (`WATCH_CHAIN_<chainId>`), each with its mode. Unset, the local chain (while
 * it is on) is read block by block, a supported chain with its own `RPC_URL_<chainId>` by its logs, and a
 * chain on its public RPC not at all (those are rate-limited; an operator who wants it sets the variable).
 */
export function watchedChains(
  config: Pick<AppConfig, 'localChain' | 'rpcUrls' | 'chainWatch'>,
): WatchedChain[] {
  const chains: WatchedChain[] = [];
  const add = (chainId: number, byDefault: ChainWatchMode) => {
    const mode = config.chainWatch.modes[chainId] ?? byDefault;
    if (mode !== 'off') chains.push({ chainId, mode });
  };
  if (config.localChain !== null) add(LOCAL_CHAIN_ID, 'blocks');
  for (const chain of SUPPORTED_CHAINS)
    add(chain.id, config.rpcUrls[chain.id] === undefined ? 'off' : 'logs');
  return chains;
}
