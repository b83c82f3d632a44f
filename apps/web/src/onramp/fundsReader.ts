import { findChain, getUsdcAddress, USDC_DECIMALS } from '@dial/core';
import { type Chain, parseUnits } from 'viem';
import type { AppConfig, OnrampOffer } from '../api/types';
import { createChainClient } from '../chain/createChainClient';
import { readUsdcBalance } from '../chain/useUsdcBalance';
import { walletChains } from '../chain/walletChains';

/** Reads the balance a purchase lands in: the asset on the chain the funds arrive on. */
export interface FundsReader {
  chain: Chain;
  /** The asset's decimals there. */
  decimals: number;
  symbol: string;
  read(): Promise<bigint>;
  /** The amount in base units. */
  units(amount: string): bigint;
}

/**
 * A reader for where `offer`'s funds arrive, or null when the app cannot read it (BTC, SOL, a network the
 * wallet does not list, a chain without USDC). In the sandbox that is the local chain's ETH or test USDC.
 */
export function fundsReader(
  config: AppConfig,
  offer: OnrampOffer,
  address: `0x${string}`,
): FundsReader | null {
  if (offer.chainId === null) return null;
  const chain = findChain(walletChains(config, window.location.origin), offer.chainId);
  if (chain === undefined) return null;
  const client = createChainClient(chain);
  if (offer.asset === 'USDC') {
    const usdc = getUsdcAddress(chain.id, config.localChain?.usdc);
    if (usdc === undefined) return null;
    return {
      chain,
      decimals: USDC_DECIMALS,
      symbol: 'USDC',
      read: () => readUsdcBalance(client, usdc, address),
      units: (amount) => parseUnits(amount, USDC_DECIMALS),
    };
  }
  const { decimals, symbol } = chain.nativeCurrency;
  return {
    chain,
    decimals,
    symbol,
    read: () => client.getBalance({ address }),
    units: (amount) => parseUnits(amount, decimals),
  };
}
