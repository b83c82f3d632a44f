import { LOCAL_CHAIN_ID } from '@dial/core';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../api/types';
import { defaultChainId, walletChains } from './walletChains';

const production: AppConfig = { environment: 'production', localChain: null, faucet: false };
const development: AppConfig = {
  environment: 'development',
  localChain: { id: LOCAL_CHAIN_ID, name: 'Local', rpcUrl: '/api/dev/chain' },
  faucet: true,
};

describe('walletChains', () => {
  it('offers the five supported networks in picker order without a local chain', () => {
    expect(walletChains(production, 'https://dial.example').map((chain) => chain.name)).toEqual([
      'Polygon',
      'Arbitrum One',
      'Base',
      'Base Sepolia',
      'Zora',
    ]);
  });

  it('adds Local last, its RPC URL made absolute against this origin', () => {
    const chains = walletChains(development, 'http://localhost:8181');
    const local = chains.at(-1)!;
    expect(chains.map((chain) => chain.name).at(-1)).toBe('Local');
    expect(local.id).toBe(LOCAL_CHAIN_ID);
    expect(local.rpcUrls.default.http).toEqual(['http://localhost:8181/api/dev/chain']);
  });
});

describe('defaultChainId', () => {
  it('selects Local when the server has a local chain, else Base', () => {
    expect(defaultChainId(walletChains(development, 'http://localhost:8181'))).toBe(LOCAL_CHAIN_ID);
    expect(defaultChainId(walletChains(production, 'https://dial.example'))).toBe(8453);
  });
});
