import { findChain, LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../api/types';
import { createChainClient } from './createChainClient';
import { defaultChainId, walletChains } from './walletChains';

const BASE_RPC = 'https://base.example.test/v1/KEY';
const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

const production: AppConfig = { environment: 'production', localChain: null, faucet: false };
const development: AppConfig = {
  environment: 'development',
  localChain: { id: LOCAL_CHAIN_ID, name: 'Local', rpcUrl: '/api/dev/chain', usdc: null },
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

  it("uses viem's public RPC URLs when the server sets none (or is older and leaves rpcUrls out)", () => {
    expect(walletChains({ ...production, rpcUrls: {} }, 'https://dial.example')).toBe(SUPPORTED_CHAINS);
    expect(walletChains(production, 'https://dial.example')).toBe(SUPPORTED_CHAINS);
  });

  it("puts a chain on the server's RPC URL for it, and leaves the others on theirs", () => {
    const chains = walletChains({ ...production, rpcUrls: { '8453': BASE_RPC } }, 'https://dial.example');
    expect(chains.map((chain) => chain.id)).toEqual([137, 42161, 8453, 84532, 7777777]);
    expect(findChain(chains, 8453)?.rpcUrls.default.http).toEqual([BASE_RPC]);
    expect(findChain(chains, 8453)?.name).toBe('Base');
    for (const id of [137, 42161, 84532, 7777777]) {
      expect(findChain(chains, id), String(id)).toBe(findChain(SUPPORTED_CHAINS, id));
    }
  });

  it('keeps the local chain on this origin next to an override', () => {
    const polygonRpc = 'https://polygon.example.test/v1/KEY';
    const chains = walletChains({ ...development, rpcUrls: { '137': polygonRpc } }, 'http://localhost:8181');
    expect(chains.map((chain) => chain.id)).toEqual([137, 42161, 8453, 84532, 7777777, LOCAL_CHAIN_ID]);
    expect(chains[0]?.rpcUrls.default.http).toEqual([polygonRpc]);
    expect(chains.at(-1)?.rpcUrls.default.http).toEqual(['http://localhost:8181/api/dev/chain']);
  });

  it('adds Local last, its RPC URL made absolute against this origin', () => {
    const chains = walletChains(development, 'http://localhost:8181');
    const local = chains.at(-1)!;
    expect(chains.map((chain) => chain.name).at(-1)).toBe('Local');
    expect(local.id).toBe(LOCAL_CHAIN_ID);
    expect(local.rpcUrls.default.http).toEqual(['http://localhost:8181/api/dev/chain']);
  });
});

describe('the balance client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends the balance request to the server's RPC URL for the chain", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }), {
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetch);
    const chains = walletChains({ ...production, rpcUrls: { '8453': BASE_RPC } }, 'https://dial.example');

    const balance = await createChainClient(findChain(chains, 8453)!).getBalance({ address: ADDRESS });

    expect(balance).toBe(42n);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(BASE_RPC);
    expect(JSON.parse(String(init?.body))).toMatchObject({
      method: 'eth_getBalance',
      params: [ADDRESS, 'latest'],
    });
  });
});

describe('defaultChainId', () => {
  it('selects Local when the server has a local chain, else Base', () => {
    expect(defaultChainId(walletChains(development, 'http://localhost:8181'))).toBe(LOCAL_CHAIN_ID);
    expect(defaultChainId(walletChains(production, 'https://dial.example'))).toBe(8453);
  });
});
