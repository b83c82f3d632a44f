import { getChains, LOCAL_CHAIN_ID } from '@dial/core';
import type { Chain } from 'viem';
import type { AppConfig } from '../api/types';

const BASE_CHAIN_ID = 8453;

/**
 * The networks to offer: the supported ones, each on the server's RPC URL for it when it has one
 * (`config.rpcUrls`, else viem's public default), then the server's local chain (development) when it has one.
 */
export function walletChains(config: AppConfig, origin: string): readonly Chain[] {
  const local = config.localChain;
  return getChains({
    localRpcUrl: local ? new URL(local.rpcUrl, origin).href : null,
    rpcUrls: config.rpcUrls ?? null,
  });
}

/** The network selected at first: Local when there is one (development), else Base. */
export function defaultChainId(chains: readonly Chain[]): number {
  if (chains.some((chain) => chain.id === LOCAL_CHAIN_ID)) return LOCAL_CHAIN_ID;
  return chains.some((chain) => chain.id === BASE_CHAIN_ID)
    ? BASE_CHAIN_ID
    : (chains[0]?.id ?? BASE_CHAIN_ID);
}
