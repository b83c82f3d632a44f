import {
  type LocalChain,
  startLocalChain,
  DEV_FAUCET_ADDRESS as TEST_ADDRESS,
  DEV_FAUCET_PRIVATE_KEY as TEST_PRIVATE_KEY,
} from '@dial/devchain/localChain';
import { MethodNotFoundRpcError, UnsupportedProviderMethodError, UserRejectedRequestError } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedProvider } from './createEmbeddedProvider.js';
import { sendTransactionWithFallback } from './sendTransactionWithFallback.js';

const TX = { from: TEST_ADDRESS, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x1' };
const HASH = `0x${'ab'.repeat(32)}`;

/** A wallet stand-in that records the methods it is asked for and answers each with `answer(method)`. */
function recordingWallet(answer: (method: string) => unknown) {
  const calls: { method: string; params: unknown }[] = [];
  return {
    calls,
    async request({ method, params }: { method: string; params?: unknown }) {
      calls.push({ method, params });
      const result = answer(method);
      if (result instanceof Error) throw result;
      return result;
    },
  };
}

describe('sendTransactionWithFallback', () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain(31337);
  });

  it('sends once with eth_sendTransaction when the wallet supports it (the embedded provider, on a real chain)', async () => {
    const provider = createEmbeddedProvider({
      address: TEST_ADDRESS,
      chains: [chain.chain],
      chainId: chain.chain.id,
      getAccount: async () => privateKeyToAccount(TEST_PRIVATE_KEY),
      transport: () => chain.request,
    });
    const methods: string[] = [];
    const recording = {
      request: (args: { method: string; params?: unknown }) => {
        methods.push(args.method);
        return provider.request(args as Parameters<typeof provider.request>[0]);
      },
    };

    const hash = await sendTransactionWithFallback(recording, TX);

    expect(methods).toEqual(['eth_sendTransaction']);
    const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: string;
    };
    expect(receipt.status).toBe('0x1');
  });

  it('retries once with wallet_sendTransaction when eth_sendTransaction is unsupported (4200)', async () => {
    const wallet = recordingWallet((method) =>
      method === 'eth_sendTransaction' ? new UnsupportedProviderMethodError(new Error(method)) : HASH,
    );
    expect(await sendTransactionWithFallback(wallet, TX)).toBe(HASH);
    expect(wallet.calls).toEqual([
      { method: 'eth_sendTransaction', params: [TX] },
      { method: 'wallet_sendTransaction', params: [TX] },
    ]);
  });

  it('retries once with wallet_sendTransaction when eth_sendTransaction is not found (-32601)', async () => {
    const wallet = recordingWallet((method) =>
      method === 'eth_sendTransaction' ? new MethodNotFoundRpcError(new Error(method)) : HASH,
    );
    expect(await sendTransactionWithFallback(wallet, TX)).toBe(HASH);
    expect(wallet.calls.map((call) => call.method)).toEqual([
      'eth_sendTransaction',
      'wallet_sendTransaction',
    ]);
  });

  it('passes a refusal (4001) through unchanged, without a retry', async () => {
    const refusal = new UserRejectedRequestError(new Error('no'));
    const wallet = recordingWallet(() => refusal);
    await expect(sendTransactionWithFallback(wallet, TX)).rejects.toBe(refusal);
    expect(wallet.calls.map((call) => call.method)).toEqual(['eth_sendTransaction']);
  });

  it('passes the fallback’s own error through and does not try a third time', async () => {
    const unsupported = new UnsupportedProviderMethodError(new Error('wallet_sendTransaction'));
    const wallet = recordingWallet(() => unsupported);
    const error = await sendTransactionWithFallback(wallet, TX).catch((e: unknown) => e);
    expect(error).toBe(unsupported);
    expect((error as UnsupportedProviderMethodError).code).toBe(4200);
    expect(wallet.calls.map((call) => call.method)).toEqual([
      'eth_sendTransaction',
      'wallet_sendTransaction',
    ]);
  });
});
