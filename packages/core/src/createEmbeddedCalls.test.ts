import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Bundler,
  DEV_PAYMASTER_SIGNER_PRIVATE_KEY,
  type DevChain,
  mintTestUsdc,
  startBundler,
  startDevChain,
  TEST_USDC_ABI,
} from '@dial/devchain';
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type EIP1193RequestFn,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseEther,
  type WalletClient,
} from 'viem';
import {
  createPaymasterClient,
  formatUserOperation,
  type RpcUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import {
  getCallsStatus,
  getCapabilities,
  sendCalls,
  showCallsStatus,
  waitForCallsStatus,
} from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCallsId, encodeCallsId, MAX_CALLS_PER_BATCH } from './callsId.js';
import type { EmbeddedPaymaster, EmbeddedUserOperations } from './createEmbeddedCalls.js';
import {
  createEmbeddedProvider,
  type EmbeddedProvider,
  type EmbeddedProviderApprovalRequest,
  type EmbeddedProviderOptions,
} from './createEmbeddedProvider.js';
import {
  DIAL_PAYMASTER_GAS,
  dialPaymasterHash,
  encodeDialPaymasterData,
  SIMPLE_7702_ACCOUNT,
} from './dialPaymaster.js';

/** A chain the wallet knows but has no bundler for: it must not appear in any answer, nor be asked anything. */
const OTHER_CHAIN = defineChain({
  id: 8453,
  name: 'Elsewhere',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
});

let chain: DevChain;
let bundler: Bundler;
let local: Chain;
let publicClient: PublicClient;
let paymasterService: PaymasterService;

beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
  bundler = await startBundler({
    rpcUrl: chain.url,
    entryPoint: chain.accountAbstraction.entryPoint,
    port: 0,
  });
  local = defineChain({
    id: chain.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.url] } },
  });
  publicClient = createPublicClient({ chain: local, transport: http(chain.url), cacheTime: 0 });
  paymasterService = await startPaymasterService(chain.accountAbstraction.paymaster);
}, 90_000);

afterAll(async () => {
  await paymasterService?.close();
  await bundler?.close();
  await chain?.close();
});

interface Wallet {
  address: Address;
  provider: EmbeddedProvider;
  client: WalletClient;
  approvals: EmbeddedProviderApprovalRequest[];
  counts: { getAccount: number };
  shown: unknown[];
}

/**
 * A new wallet (a fresh key, holding `wei`) behind the embedded provider on the local chain and a chain
 * without a bundler, with viem's wallet client over it.
 */
async function newWallet(
  wei: bigint,
  setUp: Omit<EmbeddedUserOperations, 'bundler'> = {},
  overrides: Partial<EmbeddedProviderOptions> = {},
): Promise<Wallet> {
  const key = generatePrivateKey();
  const address = privateKeyToAddress(key);
  if (wei > 0n) await fund(address, wei);
  const approvals: EmbeddedProviderApprovalRequest[] = [];
  const counts = { getAccount: 0 };
  const shown: unknown[] = [];
  const provider = createEmbeddedProvider({
    address,
    chains: [local, OTHER_CHAIN],
    chainId: local.id,
    getAccount: async () => {
      counts.getAccount++;
      return privateKeyToAccount(key);
    },
    approve: async (request) => {
      approvals.push(request);
      return true;
    },
    userOperations: (candidate) =>
      candidate.id === local.id ? { bundler: bundler.url, ...setUp } : undefined,
    showCallsStatus: (id, location) => {
      shown.push({ id, location });
    },
    ...overrides,
  });
  const client = createWalletClient({ account: address, chain: local, transport: custom(provider) });
  return { address, provider, client, approvals, counts, shown };
}

async function fund(to: Address, value: bigint): Promise<void> {
  const faucet = createWalletClient({
    chain: local,
    transport: http(chain.url),
    account: privateKeyToAccount(chain.faucet.privateKey),
  });
  await publicClient.waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to, value }) });
}

function freshAddress(): Address {
  return privateKeyToAddress(generatePrivateKey());
}

function usdcBalance(owner: Address): Promise<bigint> {
  return publicClient.readContract({
    address: chain.usdc,
    abi: TEST_USDC_ABI,
    functionName: 'balanceOf',
    args: [owner],
  }) as Promise<bigint>;
}

function usdcTransfer(to: Address, amount: bigint) {
  return {
    to: chain.usdc,
    data: encodeFunctionData({ abi: TEST_USDC_ABI, functionName: 'transfer', args: [to, amount] }),
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: unknown };
  }
  throw new Error('expected the promise to reject');
}

/** The numeric code of viem's error or of the first error in its chain of causes that has one. */
function codeOf(error: unknown): unknown {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  while (current !== undefined && current !== null) {
    if (typeof current.code === 'number') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

describe('EIP-5792 through viem’s own actions', () => {
  it('getCapabilities: atomic "ready" before the first batch, paymasterService where a paymaster is, nothing for a chain without a bundler', async () => {
    const wallet = await newWallet(0n, { paymaster: paymasterService.url });
    expect(await getCapabilities(wallet.client)).toEqual({
      [local.id]: { atomic: { status: 'ready' }, paymasterService: { supported: true } },
    });
    expect(await getCapabilities(wallet.client, { chainId: local.id })).toEqual({
      atomic: { status: 'ready' },
      paymasterService: { supported: true },
    });
    expect(await getCapabilities(wallet.client, { chainId: OTHER_CHAIN.id })).toBeUndefined();
    // Without a paymaster (and no app paymaster allowed) it says nothing of one.
    const selfPaying = await newWallet(0n);
    expect(await getCapabilities(selfPaying.client, { chainId: local.id })).toEqual({
      atomic: { status: 'ready' },
    });
    const allowingApps = await newWallet(0n, { allowAppPaymaster: true });
    expect(await getCapabilities(allowingApps.client, { chainId: local.id })).toEqual({
      atomic: { status: 'ready' },
      paymasterService: { supported: true },
    });
  });

  it('sendCalls of two ETH transfers lands atomically in one user operation; waitForCallsStatus reports success with the receipt; atomic is then "supported"', async () => {
    const wallet = await newWallet(parseEther('1'));
    const first = freshAddress();
    const second = freshAddress();
    const { id } = await sendCalls(wallet.client, {
      calls: [
        { to: first, value: 1000n },
        { to: second, value: 2000n },
      ],
      forceAtomic: true,
    });
    const location = decodeCallsId(id);
    expect(location?.chainId).toBe(local.id);
    const status = await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 });
    expect(status).toMatchObject({ status: 'success', statusCode: 200, atomic: true, chainId: local.id });
    expect(status.receipts).toHaveLength(1);
    const [receipt] = status.receipts ?? [];
    expect(receipt?.status).toBe('success');
    const onChain = await publicClient.getTransactionReceipt({ hash: receipt?.transactionHash as Hex });
    expect(onChain.blockHash).toBe(receipt?.blockHash);
    expect(onChain.blockNumber).toBe(receipt?.blockNumber);
    // The EntryPoint's UserOperationEvent for this operation is among the logs of the bundle's transaction.
    expect(onChain.logs.some((log) => log.topics[1] === location?.userOperationHash)).toBe(true);
    expect(await publicClient.getBalance({ address: first })).toBe(1000n);
    expect(await publicClient.getBalance({ address: second })).toBe(2000n);
    // The key is now delegated to Simple7702Account and keeps its address.
    expect(await publicClient.getCode({ address: wallet.address })).toBe(
      `0xef0100${SIMPLE_7702_ACCOUNT.slice(2).toLowerCase()}`,
    );
    expect(await getCapabilities(wallet.client, { chainId: local.id })).toEqual({
      atomic: { status: 'supported' },
    });
    expect(wallet.approvals).toEqual([
      { method: 'wallet_sendCalls', params: expect.any(Array), chainId: local.id, feePayer: 'wallet' },
    ]);
    expect(wallet.counts.getAccount).toBe(1);

    // A second batch goes out without an authorization (the delegation stays) and lands too.
    const third = freshAddress();
    const next = await sendCalls(wallet.client, { calls: [{ to: third, value: 3000n }] });
    const nextStatus = await waitForCallsStatus(wallet.client, {
      id: next.id,
      pollingInterval: 50,
      timeout: 30_000,
    });
    expect(nextStatus.status).toBe('success');
    expect(await publicClient.getBalance({ address: third })).toBe(3000n);
  }, 90_000);

  it("a batch sponsored by the operator's ERC-7677 paymaster lands from a wallet with 0 ETH, whose ETH balance stays 0", async () => {
    const wallet = await newWallet(0n, {
      paymaster: paymasterService.url,
      paymasterContext: { policy: 'p1' },
    });
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: wallet.address,
      amount: 10_000_000n,
    });
    const first = freshAddress();
    const second = freshAddress();
    const before = paymasterService.requests.length;
    const { id } = await sendCalls(wallet.client, {
      calls: [usdcTransfer(first, 1_000_000n), usdcTransfer(second, 2_500_000n)],
    });
    const status = await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 });
    expect(status.status).toBe('success');
    expect(status.receipts?.[0]?.status).toBe('success');
    // The calls' own logs: the two Transfer events of the test USDC.
    expect(
      status.receipts?.[0]?.logs.filter((log) => log.address.toLowerCase() === chain.usdc.toLowerCase()),
    ).toHaveLength(2);
    expect(await usdcBalance(first)).toBe(1_000_000n);
    expect(await usdcBalance(second)).toBe(2_500_000n);
    expect(await usdcBalance(wallet.address)).toBe(6_500_000n);
    expect(await publicClient.getBalance({ address: wallet.address })).toBe(0n);
    const asked = paymasterService.requests.slice(before);
    expect(asked.map((request) => request.method)).toEqual([
      'pm_getPaymasterStubData',
      'pm_getPaymasterData',
    ]);
    expect(asked.every((request) => JSON.stringify(request.context) === '{"policy":"p1"}')).toBe(true);
    expect(wallet.approvals.map((approval) => approval.feePayer)).toEqual(['operator']);
  }, 90_000);

  it("the operator's paymaster given as functions (a viem paymaster client) sponsors a batch from 0 ETH", async () => {
    const wallet = await newWallet(0n, { paymaster: paymasterService.functions });
    expect(await getCapabilities(wallet.client, { chainId: local.id })).toEqual({
      atomic: { status: 'ready' },
      paymasterService: { supported: true },
    });
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: wallet.address,
      amount: 2_000_000n,
    });
    const to = freshAddress();
    const before = paymasterService.requests.length;
    const { id } = await sendCalls(wallet.client, { calls: [usdcTransfer(to, 2_000_000n)] });
    expect(
      (await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 })).status,
    ).toBe('success');
    expect(await usdcBalance(to)).toBe(2_000_000n);
    expect(await publicClient.getBalance({ address: wallet.address })).toBe(0n);
    expect(paymasterService.requests.slice(before).map((request) => request.method)).toEqual([
      'pm_getPaymasterStubData',
      'pm_getPaymasterData',
    ]);
    expect(wallet.approvals.map((approval) => approval.feePayer)).toEqual(['operator']);
  }, 90_000);

  it("an app's paymasterService URL is used when the operator allows it: sponsored from 0 ETH, with the app's context", async () => {
    const wallet = await newWallet(0n, { allowAppPaymaster: true });
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: wallet.address,
      amount: 1_000_000n,
    });
    const to = freshAddress();
    const before = paymasterService.requests.length;
    const { id } = await sendCalls(wallet.client, {
      calls: [usdcTransfer(to, 400_000n)],
      capabilities: { paymasterService: { url: paymasterService.url, context: { app: 'demo' } } },
    });
    expect(
      (await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 })).status,
    ).toBe('success');
    expect(await usdcBalance(to)).toBe(400_000n);
    expect(await publicClient.getBalance({ address: wallet.address })).toBe(0n);
    const asked = paymasterService.requests.slice(before);
    expect(asked.map((request) => request.context)).toEqual([{ app: 'demo' }, { app: 'demo' }]);
    expect(wallet.approvals.map((approval) => approval.feePayer)).toEqual(['app']);
  }, 90_000);

  it("refuses an app's paymasterService with 5700 when the operator does not allow it, and sends nothing; marked optional, it is ignored", async () => {
    const wallet = await newWallet(parseEther('1'));
    const to = freshAddress();
    const refused = await rejectionOf(
      sendCalls(wallet.client, {
        calls: [{ to, value: 1n }],
        capabilities: { paymasterService: { url: paymasterService.url } },
      }),
    );
    expect(codeOf(refused)).toBe(5700);
    expect(wallet.approvals).toEqual([]);
    expect(wallet.counts.getAccount).toBe(0);
    const before = paymasterService.requests.length;
    const { id } = await sendCalls(wallet.client, {
      calls: [{ to, value: 5n }],
      capabilities: { paymasterService: { url: paymasterService.url, optional: true } },
    });
    expect(
      (await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 })).status,
    ).toBe('success');
    expect(await publicClient.getBalance({ address: to })).toBe(5n);
    expect(paymasterService.requests.length).toBe(before);
    expect(wallet.approvals.map((approval) => approval.feePayer)).toEqual(['wallet']);
  }, 90_000);

  it('refuses an unsupported capability not marked optional with 5700 before asking anyone; an optional one is ignored', async () => {
    const wallet = await newWallet(parseEther('1'));
    const to = freshAddress();
    const refused = await rejectionOf(
      sendCalls(wallet.client, {
        calls: [{ to, value: 1n }],
        capabilities: { flowControl: { onFailure: 'continue' } },
      }),
    );
    expect(codeOf(refused)).toBe(5700);
    // viem's sendCalls drops a call's own capabilities, so this one is sent as the app would, by hand.
    const perCall = await rejectionOf(
      wallet.provider.request({
        method: 'wallet_sendCalls',
        params: [
          {
            version: '2.0.0',
            chainId: numberToHex(local.id),
            from: wallet.address,
            atomicRequired: true,
            calls: [{ to, value: '0x1', capabilities: { auxiliaryFunds: { supported: true } } }],
          },
        ],
      }),
    );
    expect(codeOf(perCall)).toBe(5700);
    expect(wallet.approvals).toEqual([]);
    expect(wallet.counts.getAccount).toBe(0);
    const { id } = await sendCalls(wallet.client, {
      calls: [{ to, value: 7n }],
      capabilities: { flowControl: { onFailure: 'continue', optional: true } },
    });
    expect(
      (await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 })).status,
    ).toBe('success');
    expect(await publicClient.getBalance({ address: to })).toBe(7n);
  }, 90_000);

  it('a batch not yet bundled reads pending (100) on the provider that sent it, unknown (5730) on another; then success (bundler given as a request function)', async () => {
    const bundlerRpc = http(bundler.url)({ chain: local }).request;
    let holdReceipts = true;
    const bundlerRequest: EIP1193RequestFn = (async (args: { method: string; params?: unknown }) => {
      // The bundler's mempool, seen through ERC-4337's methods: no receipt yet.
      if (holdReceipts && args.method === 'eth_getUserOperationReceipt') return null;
      return bundlerRpc(args as never);
    }) as EIP1193RequestFn;
    const key = generatePrivateKey();
    const address = privateKeyToAddress(key);
    await fund(address, parseEther('1'));
    const options = {
      address,
      chains: [local],
      chainId: local.id,
      getAccount: async () => privateKeyToAccount(key),
      userOperations: () => ({ bundler: bundlerRequest }),
    };
    const client = createWalletClient({
      account: address,
      chain: local,
      transport: custom(createEmbeddedProvider(options)),
    });
    const other = createWalletClient({
      account: address,
      chain: local,
      transport: custom(createEmbeddedProvider(options)),
    });
    const to = freshAddress();
    const { id } = await sendCalls(client, { calls: [{ to, value: 11n }] });
    expect(await getCallsStatus(client, { id })).toMatchObject({
      status: 'pending',
      statusCode: 100,
      atomic: true,
      receipts: [],
    });
    expect(codeOf(await rejectionOf(getCallsStatus(other, { id })))).toBe(5730);
    holdReceipts = false;
    const status = await waitForCallsStatus(client, { id, pollingInterval: 50, timeout: 30_000 });
    expect(status.status).toBe('success');
    // Once it landed, any provider of the wallet reads it: the id holds the chain and the operation's hash.
    expect((await getCallsStatus(other, { id })).status).toBe('success');
    expect(await publicClient.getBalance({ address: to })).toBe(11n);
  }, 90_000);

  it("a batch whose call would revert is refused with the bundler's error before anything is sent: none of its calls happen", async () => {
    const wallet = await newWallet(parseEther('1'));
    const to = freshAddress();
    const refused = await rejectionOf(
      sendCalls(wallet.client, {
        // The wallet holds no test USDC: the second call reverts, so the first must not happen either.
        calls: [{ to, value: 1000n }, usdcTransfer(freshAddress(), 1n)],
      }),
    );
    // Alto answers such an operation's estimate with a bare HTTP 500 ("could not parse simulate validation
    // result"): the bundler was reached, so it is -32603 with its words, not 4901. A JSON-RPC refusal
    // (-32521 "execution reverted", -32500 validation) would pass through as the bundler gives it.
    expect([-32603, -32521, -32500]).toContain(codeOf(refused));
    expect(codeOf(refused)).not.toBe(4901);
    expect(await publicClient.getBalance({ address: to })).toBe(0n);
    expect(await publicClient.getCode({ address: wallet.address })).toBeUndefined();
    expect(await publicClient.getTransactionCount({ address: wallet.address })).toBe(0);
  }, 90_000);

  it('two batches sent at once from a wallet not yet delegated both land', async () => {
    const wallet = await newWallet(parseEther('1'));
    const first = freshAddress();
    const second = freshAddress();
    const [a, b] = await Promise.all([
      sendCalls(wallet.client, { calls: [{ to: first, value: 1n }] }),
      sendCalls(wallet.client, { calls: [{ to: second, value: 2n }] }),
    ]);
    for (const { id } of [a, b]) {
      expect(
        (await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 })).status,
      ).toBe('success');
    }
    expect(await publicClient.getBalance({ address: first })).toBe(1n);
    expect(await publicClient.getBalance({ address: second })).toBe(2n);
  }, 90_000);

  it('the person refusing gives 4001, the key is never rebuilt and nothing is sent', async () => {
    const wallet = await newWallet(parseEther('1'), {}, { approve: async () => false });
    const to = freshAddress();
    const refused = await rejectionOf(sendCalls(wallet.client, { calls: [{ to, value: 1n }] }));
    expect(codeOf(refused)).toBe(4001);
    expect(wallet.counts.getAccount).toBe(0);
    // Nothing on chain: no delegation, no nonce used, nothing received.
    expect(await publicClient.getCode({ address: wallet.address })).toBeUndefined();
    expect(await publicClient.getTransactionCount({ address: wallet.address })).toBe(0);
    expect(await publicClient.getBalance({ address: to })).toBe(0n);
  });

  it('getCallsStatus of an id never sent fails with 5730 (unknown bundle id), also for a malformed one', async () => {
    const wallet = await newWallet(0n);
    const unknown = encodeCallsId({ chainId: local.id, userOperationHash: `0x${'ab'.repeat(32)}` });
    expect(codeOf(await rejectionOf(getCallsStatus(wallet.client, { id: unknown })))).toBe(5730);
    expect(codeOf(await rejectionOf(getCallsStatus(wallet.client, { id: 'no-such-batch' })))).toBe(5730);
    // An id for a chain without a bundler is none this wallet gave either.
    const elsewhere = encodeCallsId({ chainId: OTHER_CHAIN.id, userOperationHash: `0x${'cd'.repeat(32)}` });
    expect(codeOf(await rejectionOf(getCallsStatus(wallet.client, { id: elsewhere })))).toBe(5730);
  });

  it("keeps an app's own id: status by that id; the same id again fails with 5720", async () => {
    const wallet = await newWallet(parseEther('1'));
    const to = freshAddress();
    const appId = `order-${Math.random()}`;
    const { id } = await sendCalls(wallet.client, { id: appId, calls: [{ to, value: 9n }] });
    expect(id).toBe(appId);
    const status = await waitForCallsStatus(wallet.client, { id, pollingInterval: 50, timeout: 30_000 });
    expect(status).toMatchObject({ id: appId, status: 'success' });
    expect(
      codeOf(await rejectionOf(sendCalls(wallet.client, { id: appId, calls: [{ to, value: 1n }] }))),
    ).toBe(5720);
    expect(wallet.approvals).toHaveLength(1);
  }, 90_000);

  it('refuses too many calls with 5740, a chain without a bundler with 5710, and another sender with 4100', async () => {
    const wallet = await newWallet(0n);
    const to = freshAddress();
    const tooMany = Array.from({ length: MAX_CALLS_PER_BATCH + 1 }, () => ({ to, value: 1n }));
    expect(codeOf(await rejectionOf(sendCalls(wallet.client, { calls: tooMany })))).toBe(5740);
    expect(
      codeOf(await rejectionOf(sendCalls(wallet.client, { chain: OTHER_CHAIN, calls: [{ to, value: 1n }] }))),
    ).toBe(5710);
    expect(
      codeOf(
        await rejectionOf(sendCalls(wallet.client, { account: freshAddress(), calls: [{ to, value: 1n }] })),
      ),
    ).toBe(4100);
    expect(wallet.approvals).toEqual([]);
  });

  it('showCallsStatus hands the id and where its user operation is to the callback; 5730 for an unknown id', async () => {
    const wallet = await newWallet(0n);
    const id = encodeCallsId({ chainId: local.id, userOperationHash: `0x${'ef'.repeat(32)}` });
    await showCallsStatus(wallet.client, { id });
    expect(wallet.shown).toEqual([
      { id, location: { chainId: local.id, userOperationHash: `0x${'ef'.repeat(32)}` } },
    ]);
    expect(codeOf(await rejectionOf(showCallsStatus(wallet.client, { id: 'nothing' })))).toBe(5730);
    const withoutCallback = await newWallet(0n, {}, { showCallsStatus: undefined });
    expect(codeOf(await rejectionOf(showCallsStatus(withoutCallback.client, { id })))).toBe(4200);
  });

  it('without userOperations the EIP-5792 methods are unsupported (4200), as before', async () => {
    const wallet = await newWallet(0n, {}, { userOperations: undefined });
    expect(codeOf(await rejectionOf(getCapabilities(wallet.client)))).toBe(4200);
    expect(codeOf(await rejectionOf(sendCalls(wallet.client, { calls: [{ to: freshAddress() }] })))).toBe(
      4200,
    );
    const id = encodeCallsId({ chainId: local.id, userOperationHash: `0x${'ab'.repeat(32)}` });
    expect(codeOf(await rejectionOf(getCallsStatus(wallet.client, { id })))).toBe(4200);
    expect(wallet.approvals).toEqual([]);
  });
});

interface PaymasterService {
  url: string;
  /** Every ERC-7677 request, in order. */
  requests: { method: string; context: unknown }[];
  /** The same service as paymaster functions in process (a viem paymaster client over it, no HTTP). */
  functions: EmbeddedPaymaster;
  close(): Promise<void>;
}

/**
 * A small ERC-7677 paymaster service for Dial's paymaster, signing every operation with the dev paymaster
 * signer: the stub has the real data's length (a signature by another key), the final data the signer's
 * signature of `dialPaymasterHash` over the operation with the paymaster's fixed gas limits.
 */
async function startPaymasterService(paymaster: Address): Promise<PaymasterService> {
  const signer = privateKeyToAccount(DEV_PAYMASTER_SIGNER_PRIVATE_KEY);
  const stranger = privateKeyToAccount(generatePrivateKey());
  const requests: PaymasterService['requests'] = [];
  const gas = {
    paymasterVerificationGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterPostOpGasLimit),
  };

  async function answer(method: string, params: unknown[]): Promise<unknown> {
    const [operation, , chainIdHex, context] = params as [RpcUserOperation, Address, Hex, unknown];
    requests.push({ method, context });
    const window = { validUntil: Math.floor(Date.now() / 1000) + 600, validAfter: 0 };
    const packed = toPackedUserOperation({
      ...formatUserOperation(operation),
      paymaster,
      paymasterVerificationGasLimit: DIAL_PAYMASTER_GAS.paymasterVerificationGasLimit,
      paymasterPostOpGasLimit: DIAL_PAYMASTER_GAS.paymasterPostOpGasLimit,
      paymasterData: '0x',
    } as UserOperation<'0.8'>);
    const hash = dialPaymasterHash(packed, Number(BigInt(chainIdHex)), paymaster, window);
    if (method === 'pm_getPaymasterStubData') {
      const signature = await stranger.signMessage({ message: { raw: hash } });
      return { paymaster, paymasterData: encodeDialPaymasterData(window, signature), ...gas, isFinal: false };
    }
    if (method === 'pm_getPaymasterData') {
      const signature = await signer.signMessage({ message: { raw: hash } });
      return { paymaster, paymasterData: encodeDialPaymasterData(window, signature) };
    }
    throw Object.assign(new Error(`${method} is not an ERC-7677 method`), { code: -32601 });
  }

  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      answer(method, params).then(
        (result) => respond({ jsonrpc: '2.0', id, result }),
        (error: Error & { code?: number }) =>
          respond({ jsonrpc: '2.0', id, error: { code: error.code ?? -32603, message: error.message } }),
      );
    });
    function respond(message: unknown): void {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(message));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    functions: createPaymasterClient({
      transport: custom({ request: ({ method, params }) => answer(method, params as unknown[]) }),
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
