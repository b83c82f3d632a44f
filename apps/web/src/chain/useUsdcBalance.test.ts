import { findChain, LOCAL_CHAIN_ID } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../api/types';
import { createChainClient } from './createChainClient';
import { readUsdcBalance } from './useUsdcBalance';
import { walletChains } from './walletChains';

const OWNER = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const development: AppConfig = {
  environment: 'development',
  localChain: { id: LOCAL_CHAIN_ID, name: 'Local', rpcUrl: '/api/dev/chain', usdc: USDC },
  faucet: true,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('readUsdcBalance', () => {
  it("calls balanceOf(owner) on the USDC contract through the chain's RPC and returns the units", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      // 100 USDC: 100_000_000 units, as a uint256.
      const result = `0x${(100_000_000).toString(16).padStart(64, '0')}`;
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), {
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetch);
    const local = findChain(walletChains(development, 'http://localhost:8181'), LOCAL_CHAIN_ID)!;

    const units = await readUsdcBalance(createChainClient(local), USDC, OWNER);

    expect(units).toBe(100_000_000n);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('http://localhost:8181/api/dev/chain');
    const body = JSON.parse(String(init?.body)) as { method: string; params: [{ to: string; data: string }] };
    expect(body.method).toBe('eth_call');
    expect(body.params[0].to.toLowerCase()).toBe(USDC.toLowerCase());
    // balanceOf(address) is selector 0x70a08231, then the owner left-padded to 32 bytes.
    expect(body.params[0].data).toBe(`0x70a08231${OWNER.slice(2).toLowerCase().padStart(64, '0')}`);
  });
});
