import { SIMPLE_7702_ACCOUNT } from '@dial/core';
import { type Bundler, type DevChain, startBundler, startDevChain } from '@dial/devchain';
import {
  type Chain,
  createClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  type RpcTransactionReceipt,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { getBalance, waitForTransactionReceipt } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELEGATED_CODE,
  isDelegated,
  receiptPollingMs,
  sendSponsored,
  userOperationError,
} from './sponsoredSend';

/**
 * The user operation the embedded wallet sends, against the real parts: the dev chain (EntryPoint v0.8 and
 * Simple7702Account at their public addresses) and Pimlico's Alto in front of it. No paymaster here (the
 * account pays its own fee from ETH the faucet gave it): what is checked is the account, the operation and
 * the EIP-7702 authorization, which is signed on the wallet's first send only.
 */
let devChain: DevChain;
let bundler: Bundler;
let chain: Chain;

beforeAll(async () => {
  devChain = await startDevChain({ port: 0 });
  bundler = await startBundler({
    rpcUrl: devChain.url,
    entryPoint: devChain.accountAbstraction.entryPoint,
    port: 0,
  });
  chain = defineChain({
    id: devChain.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [devChain.url] } },
  });
}, 90_000);

afterAll(async () => {
  await bundler?.close();
  await devChain?.close();
});

function chainClient() {
  return createClient({ chain, transport: http(devChain.url), pollingInterval: 50, cacheTime: 0 });
}

async function fundedOwner() {
  const owner = privateKeyToAccount(generatePrivateKey());
  const faucet = createWalletClient({
    chain,
    transport: http(devChain.url),
    account: privateKeyToAccount(devChain.faucet.privateKey),
  });
  await waitForTransactionReceipt(chainClient(), {
    hash: await faucet.sendTransaction({ to: owner.address, value: parseEther('1') }),
  });
  return owner;
}

async function transactionType(hash: `0x${string}`): Promise<string> {
  const transaction = (await chainClient().request({
    method: 'eth_getTransactionByHash',
    params: [hash],
  })) as { type: string; authorizationList?: Array<{ address: string }> } | null;
  return transaction?.type ?? 'missing';
}

describe('sendSponsored', () => {
  it("signs the EIP-7702 authorization on the wallet's first send only: then its code is the delegation and none is signed", async () => {
    const owner = await fundedOwner();
    const client = chainClient();
    const to = privateKeyToAddress(generatePrivateKey());
    let authorizations = 0;
    const counted = {
      ...owner,
      signAuthorization: async (...args: Parameters<typeof owner.signAuthorization>) => {
        authorizations++;
        return owner.signAuthorization(...args);
      },
    };
    expect(await isDelegated(client, owner.address)).toBe(false);

    const first = await sendSponsored({
      client,
      owner: counted,
      call: { to, value: 1_000n },
      bundlerUrl: bundler.url,
      paymasterUrl: undefined,
    });
    expect(authorizations).toBe(1);
    // EIP-7702's set-code transaction: the bundler carried the wallet's authorization.
    expect(await transactionType(first)).toBe('0x4');
    expect(await client.request({ method: 'eth_getCode', params: [owner.address, 'latest'] })).toBe(
      DELEGATED_CODE,
    );
    expect(DELEGATED_CODE).toBe(`0xef0100${SIMPLE_7702_ACCOUNT.slice(2).toLowerCase()}`);
    expect(await isDelegated(client, owner.address)).toBe(true);

    const second = await sendSponsored({
      client,
      owner: counted,
      call: { to, value: 2_000n },
      bundlerUrl: bundler.url,
      paymasterUrl: undefined,
    });
    expect(authorizations).toBe(1);
    expect(await transactionType(second)).toBe('0x2');
    expect(await getBalance(client, { address: to })).toBe(3_000n);
    const receipt = (await client.request({
      method: 'eth_getTransactionReceipt',
      params: [second],
    })) as RpcTransactionReceipt;
    expect(receipt.status).toBe('0x1');
  }, 60_000);

  it('reports the hash of the user operation to onSubmitted before it waits for its inclusion', async () => {
    const owner = await fundedOwner();
    const submitted: string[] = [];
    const hash = await sendSponsored({
      client: chainClient(),
      owner,
      call: { to: privateKeyToAddress(generatePrivateKey()), value: 1n },
      bundlerUrl: bundler.url,
      paymasterUrl: undefined,
      onSubmitted: (operation) => submitted.push(operation),
    });
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(hash).not.toBe(submitted[0]);
  }, 60_000);
});

describe('receiptPollingMs', () => {
  it('asks for the receipt every half block, from 25 ms to 1 s, and every 500 ms on a chain with no block time', () => {
    expect(receiptPollingMs({ blockTime: 50 })).toBe(25);
    expect(receiptPollingMs({ blockTime: 2_000 })).toBe(1_000);
    expect(receiptPollingMs({ blockTime: 250 })).toBe(125);
    expect(receiptPollingMs({ blockTime: 12_000 })).toBe(1_000);
    expect(receiptPollingMs({})).toBe(500);
  });
});

describe('userOperationError', () => {
  it("reads a paymaster's refusal by the catalogue code in its JSON-RPC error's data", () => {
    const rpcError = Object.assign(new Error('RPC Request failed.'), {
      code: -32602,
      data: { code: 'too_many_requests' },
    });
    const wrapped = Object.assign(new Error('Paymaster refused'), { cause: rpcError });
    expect(userOperationError(wrapped).code).toBe('too_many_requests');
  });

  it("reads the API's HTTP error answers (viem keeps their error as the details' JSON)", () => {
    const capped = Object.assign(new Error('HTTP request failed.'), {
      status: 429,
      details: JSON.stringify({ code: -32000, message: 'used up', data: { code: 'sponsor_daily_cap' } }),
    });
    expect(userOperationError(Object.assign(new Error('x'), { cause: capped })).code).toBe(
      'sponsor_daily_cap',
    );
    const proxy = Object.assign(new Error('HTTP request failed.'), {
      details: JSON.stringify({ code: 'bundler_unavailable', message: 'no bundler' }),
    });
    expect(userOperationError(proxy).code).toBe('bundler_unavailable');
    expect(userOperationError(Object.assign(new Error('x'), { details: '{not json' })).code).toBe(
      'internal_error',
    );
  });

  it('maps anything else as a plain send does', () => {
    expect(userOperationError(Object.assign(new Error('x'), { code: 4001 })).code).toBe('user_rejected');
    expect(userOperationError(new Error('boom')).code).toBe('internal_error');
    expect(userOperationError(Object.assign(new Error('x'), { data: { code: 'nonsense' } })).code).toBe(
      'internal_error',
    );
  });
});
