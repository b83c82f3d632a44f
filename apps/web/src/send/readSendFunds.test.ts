import { DialError, findChain, LOCAL_CHAIN_ID } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../api/types';
import { createChainClient } from '../chain/createChainClient';
import { walletChains } from '../chain/walletChains';
import { readSendFunds } from './readSendFunds';

const OWNER = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const development: AppConfig = {
  environment: 'development',
  localChain: { id: LOCAL_CHAIN_ID, name: 'Local', rpcUrl: '/api/dev/chain', usdc: USDC },
  faucet: true,
};
const local = () => findChain(walletChains(development, 'http://localhost:8181'), LOCAL_CHAIN_ID)!;

interface RpcRequest {
  id: number;
  method: string;
  params: unknown[];
}

/** Stands in for the chain's RPC, answering each request (a batch or one) and keeping them to be checked. */
function stubRpc(answer: (request: RpcRequest) => unknown) {
  const requests: RpcRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof globalThis.fetch>(async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as RpcRequest | RpcRequest[];
      const reply = (request: RpcRequest) => {
        requests.push(request);
        return { jsonrpc: '2.0', id: request.id, result: answer(request) };
      };
      const result = Array.isArray(body) ? body.map(reply) : reply(body);
      return new Response(JSON.stringify(result), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('readSendFunds', () => {
  it('reads the native balance at the pending block, so a transfer not yet mined counts', async () => {
    const requests = stubRpc(() => '0xde0b6b3a7640000'); // 1 ETH

    const funds = await readSendFunds(createChainClient(local()), OWNER, 'native', USDC);

    expect(funds).toEqual({ native: 10n ** 18n, usdc: undefined });
    expect(requests).toEqual([
      { jsonrpc: '2.0', id: expect.any(Number), method: 'eth_getBalance', params: [OWNER, 'pending'] },
    ]);
  });

  it('reads USDC (balanceOf) at the pending block too when USDC is sent', async () => {
    const requests = stubRpc((request) =>
      request.method === 'eth_getBalance' ? '0x1' : `0x${(5_000_000).toString(16).padStart(64, '0')}`,
    );

    const funds = await readSendFunds(createChainClient(local()), OWNER, 'usdc', USDC);

    expect(funds).toEqual({ native: 1n, usdc: 5_000_000n });
    const call = requests.find((request) => request.method === 'eth_call');
    expect(call?.params).toEqual([
      { to: USDC, data: `0x70a08231${OWNER.slice(2).toLowerCase().padStart(64, '0')}` },
      'pending',
    ]);
    expect(requests.find((request) => request.method === 'eth_getBalance')?.params).toEqual([
      OWNER,
      'pending',
    ]);
  });

  it("reads the latest block instead when the RPC refuses 'pending', rather than blocking the send", async () => {
    const requests: RpcRequest[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof globalThis.fetch>(async (_url, init) => {
        const request = JSON.parse(String(init?.body)) as RpcRequest;
        requests.push(request);
        const answer = request.params.includes('pending')
          ? { error: { code: -32602, message: 'invalid block tag' } }
          : { result: '0x2a' };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );

    const funds = await readSendFunds(createChainClient(local()), OWNER, 'native', USDC);

    expect(funds).toEqual({ native: 42n, usdc: undefined });
    expect(requests.map((request) => request.params)).toEqual([
      [OWNER, 'pending'],
      [OWNER, 'latest'],
    ]);
  });

  it('says the chain is unavailable when it cannot be read', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof globalThis.fetch>(async () => new Response('down', { status: 502 })),
    );

    const read = readSendFunds(createChainClient(local()), OWNER, 'native', undefined);

    await expect(read).rejects.toBeInstanceOf(DialError);
    await expect(read).rejects.toMatchObject({ code: 'chain_unavailable' });
  });
});
