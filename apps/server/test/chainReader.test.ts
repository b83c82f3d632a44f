import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SUPPORTED_CHAINS } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import { createWalletClient, getAddress, type Hex, http, parseEther, parseGwei } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChainReadError, createChainReader } from '../src/chain/chainReader.js';
import { chainRpcUrl, chainUsdcAddress } from '../src/chain/chainRpcUrl.js';
import { fundedActor, mineBlock, pauseMining, resumeMining, viemChain } from './chainActors.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

const BOB = getAddress('0x00000000000000000000000000000000000000b0');
const MALLORY = getAddress('0x00000000000000000000000000000000000000ee');
const UNKNOWN_HASH: Hex = `0x${'ab'.repeat(32)}`;

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

const localConfig = (rpcUrl: string) => ({
  rpcUrls: {},
  localChain: { start: false, port: 0, rpcUrl, usdc: chain.usdc },
});

describe('chainRpcUrl and chainUsdcAddress', () => {
  it('reads a chain through RPC_URL_<chainId>, else its public RPC, and the local chain through its URL', () => {
    const config = {
      rpcUrls: { 8453: 'https://base.example.com/v1/KEY' },
      localChain: { start: false, port: 0, rpcUrl: 'http://127.0.0.1:8545' },
    };
    expect(chainRpcUrl(config, 8453)).toBe('https://base.example.com/v1/KEY');
    const polygon = SUPPORTED_CHAINS.find((candidate) => candidate.id === 137);
    expect(chainRpcUrl(config, 137)).toBe(polygon?.rpcUrls.default.http[0]);
    expect(chainRpcUrl(config, 31337)).toBe('http://127.0.0.1:8545');
    expect(chainRpcUrl({ ...config, localChain: null }, 31337)).toBeUndefined();
    expect(chainRpcUrl(config, 1)).toBeUndefined();
  });

  it("gives Circle's USDC on the supported chains, the local test USDC, and none on Zora", () => {
    expect(chainUsdcAddress(localConfig(chain.url), 8453)).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(chainUsdcAddress(localConfig(chain.url), 31337)).toBe(chain.usdc);
    expect(chainUsdcAddress(localConfig(chain.url), 7777777)).toBeUndefined();
    expect(chainUsdcAddress({ rpcUrls: {}, localChain: null }, 31337)).toBeUndefined();
  });
});

describe('createChainReader on a real local chain', () => {
  it('reads a mined transfer: its signed fields and its receipt', async () => {
    const alice = await fundedActor(chain);
    const hash = await alice.sendNative(BOB, 1234n);
    const evidence = await createChainReader(localConfig(chain.url)).readTransaction(31337, hash);
    expect(evidence.transaction).toEqual({
      supported: true,
      hash,
      from: alice.address,
      to: BOB,
      value: 1234n,
      input: '0x',
    });
    expect(evidence.receipt).toMatchObject({ status: 'success', blockNumber: expect.any(BigInt) });
  });

  it('checks the signature of legacy (EIP-155) and EIP-2930 transactions too', async () => {
    const alice = await fundedActor(chain);
    const wallet = createWalletClient({
      account: alice.account,
      chain: viemChain(chain),
      transport: http(chain.url),
    });
    const reader = createChainReader(localConfig(chain.url));
    for (const type of ['legacy', 'eip2930'] as const) {
      const hash = await wallet.sendTransaction({ type, to: BOB, value: 7n, gasPrice: parseGwei('2') });
      const { transaction } = await reader.readTransaction(31337, hash);
      expect(transaction).toMatchObject({ supported: true, from: alice.address, to: BOB, value: 7n });
    }
  });

  it('says "not found" (no transaction, no receipt) for a hash the chain does not know', async () => {
    const reader = createChainReader(localConfig(chain.url));
    expect(await reader.readTransaction(31337, UNKNOWN_HASH)).toEqual({ transaction: null, receipt: null });
  });

  it('reads a transaction waiting in the pool without a receipt', async () => {
    const alice = await fundedActor(chain);
    await pauseMining(chain);
    try {
      const hash = await alice.sendNative(BOB, 5n);
      const reader = createChainReader(localConfig(chain.url));
      const waiting = await reader.readTransaction(31337, hash);
      expect(waiting.transaction).toMatchObject({ from: alice.address, value: 5n });
      expect(waiting.receipt).toBeNull();
      await mineBlock(chain);
      expect((await reader.readTransaction(31337, hash)).receipt?.status).toBe('success');
    } finally {
      await resumeMining(chain);
    }
  });

  it('fails (never "not found") when the RPC is down, and when it serves another chain', async () => {
    const down = createChainReader(localConfig('http://127.0.0.1:9'));
    await expect(down.readTransaction(31337, UNKNOWN_HASH)).rejects.toBeInstanceOf(ChainReadError);
    const other = await startDevChain({ port: 0, chainId: 1337 });
    try {
      const wrong = createChainReader(localConfig(other.url));
      await expect(wrong.readTransaction(31337, UNKNOWN_HASH)).rejects.toThrow(
        new ChainReadError('the RPC of chain 31337 serves chain 1337'),
      );
    } finally {
      await other.close();
    }
    await expect(
      createChainReader({ rpcUrls: {}, localChain: null }).readTransaction(31337, UNKNOWN_HASH),
    ).rejects.toBeInstanceOf(ChainReadError);
  });

  describe('with an RPC that hangs', () => {
    let proxy: TcpProxy;
    afterEach(async () => {
      await proxy.close();
    });

    it('times out each call and fails the read', async () => {
      const { port } = new URL(chain.url);
      proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(port) });
      proxy.silence();
      const reader = createChainReader(localConfig(`http://127.0.0.1:${proxy.port}`), { timeoutMs: 300 });
      const started = Date.now();
      await expect(reader.readTransaction(31337, UNKNOWN_HASH)).rejects.toBeInstanceOf(ChainReadError);
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });

  describe('with a compromised RPC that rewrites transactions', () => {
    let server: Server;
    let rewrite: (transaction: Record<string, string>) => void = () => {};
    beforeAll(async () => {
      server = createServer(async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString();
        const upstream = await fetch(chain.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = (await upstream.json()) as { result?: Record<string, string> | null };
        const { method } = JSON.parse(body) as { method: string };
        if (method === 'eth_getTransactionByHash' && answer.result) rewrite(answer.result);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(answer));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it.each([
      ['another sender', (tx: Record<string, string>) => Object.assign(tx, { from: MALLORY.toLowerCase() })],
      ['another value', (tx: Record<string, string>) => Object.assign(tx, { value: '0x1' })],
      ['another recipient', (tx: Record<string, string>) => Object.assign(tx, { to: MALLORY.toLowerCase() })],
    ])('refuses a transaction with %s than its hash and signature commit to', async (_name, change) => {
      const alice = await fundedActor(chain);
      const hash = await alice.sendNative(BOB, parseEther('0.01'));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const reader = createChainReader(localConfig(url));
      rewrite = () => {};
      expect((await reader.readTransaction(31337, hash)).transaction?.from).toBe(alice.address);
      rewrite = change;
      await expect(reader.readTransaction(31337, hash)).rejects.toThrow(ChainReadError);
    });
  });
});
