import { LOCAL_CHAIN_ID } from '@dial/core';
import { describe, expect, it } from 'vitest';
import type { AppConfig, OnrampOffer } from '../api/types';
import { walletChains } from '../chain/walletChains';
import { networkLabel, offerOn } from './offerOn';

const offer = (asset: OnrampOffer['asset'], network: string, networkName: string, chainId: number | null) =>
  ({ asset, network, networkName, chainId }) satisfies OnrampOffer;

const COINBASE = [
  offer('USDC', 'base', 'Base', 8453),
  offer('USDC', 'arbitrum', 'Arbitrum One', 42161),
  offer('ETH', 'base', 'Base', 8453),
  offer('ETH', 'arbitrum', 'Arbitrum One', 42161),
  offer('BTC', 'bitcoin', 'Bitcoin', null),
];

describe('offerOn', () => {
  it("opens on the wallet's network, not on the first offer's", () => {
    expect(offerOn(COINBASE, 42161)).toEqual(COINBASE[1]);
    expect(offerOn(COINBASE, 42161, 'ETH')).toEqual(COINBASE[3]);
  });

  it('falls back to the first offer (of the asset) when nothing lands on that network', () => {
    expect(offerOn(COINBASE, 84532)).toEqual(COINBASE[0]);
    expect(offerOn(COINBASE, 84532, 'ETH')).toEqual(COINBASE[2]);
    expect(offerOn([], 8453)).toBeUndefined();
  });
});

describe('networkLabel', () => {
  const config: AppConfig = {
    environment: 'development',
    localChain: { id: LOCAL_CHAIN_ID, name: 'Local', rpcUrl: '/api/dev/chain', usdc: null },
    faucet: true,
  };
  const chains = walletChains(config, 'http://localhost:8181');

  it("names the chain the funds land on, with the provider's network when it differs", () => {
    expect(networkLabel(offer('USDC', 'base', 'Base', LOCAL_CHAIN_ID), chains)).toBe(
      'Local (Base in the sandbox)',
    );
    expect(networkLabel(offer('USDC', 'base', 'Base', 8453), chains)).toBe('Base');
    expect(networkLabel(offer('BTC', 'bitcoin', 'Bitcoin', null), chains)).toBe('Bitcoin');
  });
});
