import { explorerUrl } from '@dial/core';
import type { Chain } from 'viem';

/**
 * The page of a transaction on the chain's block explorer (`<explorer>/tx/<hash>`), or undefined when the
 * chain has none (the local chain): then the hash is shown as it is.
 */
export function explorerTxUrl(chain: Chain, hash: `0x${string}`): string | undefined {
  const base = explorerUrl(chain);
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/tx/${hash}`;
}

/** The explorer's name for a link ("Basescan"), or a plain "block explorer". */
export function explorerName(chain: Chain): string {
  return chain.blockExplorers?.default.name ?? 'block explorer';
}
