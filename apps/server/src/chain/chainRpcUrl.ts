import { getUsdcAddress, LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import type { Address } from 'viem';
import type { AppConfig } from '../config/index.js';

/** What the server reads a chain through: the configured RPC URLs and the local chain. */
export type ChainConfig = Pick<AppConfig, 'rpcUrls' | 'localChain'>;

/**
 * The JSON-RPC endpoint the server reads a chain from: `RPC_URL_<chainId>` when it is set, else the public
 * RPC of the chain's definition (viem's, through core's `SUPPORTED_CHAINS`); for the local chain (31337)
 * `localChain.rpcUrl` while it is on.
 *
 * @returns The URL, or `undefined` for a chain the server does not read (unknown, or the local chain off).
 */
export function chainRpcUrl(config: ChainConfig, chainId: number): string | undefined {
  if (chainId === LOCAL_CHAIN_ID) return config.localChain?.rpcUrl;
  const chain = SUPPORTED_CHAINS.find((candidate) => candidate.id === chainId);
  if (chain === undefined) return undefined;
  return config.rpcUrls[chainId] ?? chain.rpcUrls.default.http[0];
}

/**
 * The USDC contract transfers on a chain are checked against: Circle's (core's `USDC_ADDRESSES`), or on the
 * local chain the test USDC the server started (`localChain.usdc`).
 *
 * @returns The address, or `undefined` when the chain has no USDC this server knows of.
 */
export function chainUsdcAddress(config: ChainConfig, chainId: number): Address | undefined {
  return getUsdcAddress(chainId, config.localChain?.usdc ?? null);
}
