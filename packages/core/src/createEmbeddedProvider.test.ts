import {
  type LocalChain,
  LocalChainRpcError,
  startLocalChain,
  DEV_FAUCET_ADDRESS as TEST_ADDRESS,
  DEV_FAUCET_PRIVATE_KEY as TEST_PRIVATE_KEY,
} from '@dial/devchain/localChain';
import {
  BrowserProvider,
  verifyMessage as ethersVerifyMessage,
  verifyTypedData as ethersVerifyTypedData,
} from 'ethers';
import {
  type Address,
  BaseError,
  type Chain,
  ChainDisconnectedError,
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193RequestFn,
  InvalidParamsRpcError,
  MaxFeePerGasTooLowError,
  numberToHex,
  ProviderDisconnectedError,
  SwitchChainError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
  verifyMessage,
  verifyTypedData,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalChain as createLocalChainDescription } from './chains.js';
import {
  createEmbeddedProvider,
  type EmbeddedProvider,
  type EmbeddedProviderOptions,
} from './createEmbeddedProvider.js';
import { DialError } from './errors.js';
import { findCause } from './findCause.js';

const OTHER_ADDRESS: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let first: LocalChain;
let second: LocalChain;

beforeAll(async () => {
  first = await startLocalChain(31337);
  second = await startLocalChain(1337);
});

/** A provider on the two local chains, starting on 31337, that counts how often it reconstructs the key. */
function setUp(overrides: Partial<EmbeddedProviderOptions> = {}) {
  const counts = { getAccount: 0 };
  const byId = new Map<number, EIP1193RequestFn>([
    [first.chain.id, first.request],
    [second.chain.id, second.request],
  ]);
  const provider = createEmbeddedProvider({
    address: TEST_ADDRESS,
    chains: [first.chain, second.chain],
    chainId: first.chain.id,
    getAccount: async () => {
      counts.getAccount++;
      return privateKeyToAccount(TEST_PRIVATE_KEY);
    },
    transport: (chain: Chain) => byId.get(chain.id)!,
    ...overrides,
  });
  return { provider, counts };
}

/** Sends any request, well-formed or not: the provider's own type only admits known methods and params. */
function call(provider: EmbeddedProvider, args: { method: string; params?: unknown }): Promise<unknown> {
  return (provider.request as (args: { method: string; params?: unknown }) => Promise<unknown>)(args);
}

/** A new, empty account: its balance is exactly what a test sends it. */
function freshAddress(): Address {
  return privateKeyToAddress(generatePrivateKey());
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: unknown };
  }
  throw new Error('expected the promise to reject');
}

async function balanceOf(chain: LocalChain, address: Address): Promise<bigint> {
  return BigInt((await chain.request({ method: 'eth_getBalance', params: [address, 'latest'] })) as string);
}

async function nonceOf(chain: LocalChain, address: Address): Promise<bigint> {
  return BigInt(
    (await chain.request({ method: 'eth_getTransactionCount', params: [address, 'latest'] })) as string,
  );
}

const TYPED_DATA = {
  domain: {
    name: 'Dial Test',
    version: '1',
    chainId: 31337,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    Mail: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: { to: OTHER_ADDRESS, amount: 42n, contents: 'Hello, Bob!' },
} as const;

describe('createEmbeddedProvider with viem', () => {
  it('reads the chain id through a public client', async () => {
    const { provider } = setUp();
    const publicClient = createPublicClient({ transport: custom(provider) });
    expect(await publicClient.getChainId()).toBe(31337);
  });

  it('sends a transaction that moves exactly its value and succeeds', async () => {
    const { provider } = setUp();
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const publicClient = createPublicClient({ transport: custom(provider) });
    const to = freshAddress();
    expect(await publicClient.getBalance({ address: to })).toBe(0n);

    const hash = await walletClient.sendTransaction({ to, value: 123_456_789n, chain: null });

    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(TEST_ADDRESS.toLowerCase());
    expect(await publicClient.getBalance({ address: to })).toBe(123_456_789n);
  });

  it('signs a text message that verifies as the wallet', async () => {
    const { provider } = setUp();
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const signature = await walletClient.signMessage({ message: 'Sign in to Dial' });
    expect(await verifyMessage({ address: TEST_ADDRESS, message: 'Sign in to Dial', signature })).toBe(true);
  });

  it('signs a hex message as bytes', async () => {
    const { provider } = setUp();
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const signature = await walletClient.signMessage({ message: { raw: '0xdeadbeef' } });
    expect(await verifyMessage({ address: TEST_ADDRESS, message: { raw: '0xdeadbeef' }, signature })).toBe(
      true,
    );
  });

  it('signs typed data that verifies as the wallet', async () => {
    const { provider } = setUp();
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const signature = await walletClient.signTypedData(TYPED_DATA);
    expect(await verifyTypedData({ address: TEST_ADDRESS, ...TYPED_DATA, signature })).toBe(true);
  });

  it('switches chains: the client reads the new id and chainChanged fires with it in hex', async () => {
    const { provider } = setUp();
    const changes: string[] = [];
    provider.on('chainChanged', (chainId) => changes.push(chainId));
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const publicClient = createPublicClient({ transport: custom(provider) });

    await walletClient.switchChain({ id: 1337 });

    expect(await publicClient.getChainId()).toBe(1337);
    expect(changes).toEqual(['0x539']);
    // And the wallet now sends on the new chain.
    const to = freshAddress();
    const hash = await walletClient.sendTransaction({ to, value: 7n, chain: null });
    expect((await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status).toBe(
      'success',
    );
    expect(await balanceOf(second, to)).toBe(7n);
    expect(await balanceOf(first, to)).toBe(0n);
    // Reads now go to the second chain: its block number is its own.
    expect(await publicClient.getBlockNumber()).toBe(
      BigInt((await second.request({ method: 'eth_blockNumber' })) as string),
    );
  });

  it('surfaces a refusal as 4001 inside viem’s error', async () => {
    const { provider } = setUp({ approve: async () => false });
    const walletClient = createWalletClient({ account: TEST_ADDRESS, transport: custom(provider) });
    const error = await rejectionOf(walletClient.signMessage({ message: 'no' }));
    expect(error).toBeInstanceOf(BaseError);
    const cause = (error as BaseError).walk((e) => e instanceof UserRejectedRequestError);
    expect(cause).toBeInstanceOf(UserRejectedRequestError);
    expect((cause as UserRejectedRequestError).code).toBe(4001);
  });
});

describe('createEmbeddedProvider with ethers v6', () => {
  it('reads the chain id', async () => {
    const { provider } = setUp();
    const browserProvider = new BrowserProvider(provider);
    expect((await browserProvider.getNetwork()).chainId).toBe(31337n);
  });

  it('sends a transaction that moves exactly its value and succeeds', async () => {
    const { provider } = setUp();
    const browserProvider = new BrowserProvider(provider);
    const signer = await browserProvider.getSigner();
    expect(signer.address).toBe(TEST_ADDRESS);
    const to = freshAddress();

    const response = await signer.sendTransaction({ to, value: 987_654_321n });
    const receipt = await response.wait();

    expect(receipt?.status).toBe(1);
    expect(receipt?.hash).toBe(response.hash);
    expect(await browserProvider.getBalance(to)).toBe(987_654_321n);
  });

  it('signs a message that verifies as the wallet', async () => {
    const { provider } = setUp();
    const signer = await new BrowserProvider(provider).getSigner();
    const signature = await signer.signMessage('Sign in to Dial');
    expect(ethersVerifyMessage('Sign in to Dial', signature)).toBe(TEST_ADDRESS);
  });

  it('signs typed data that verifies as the wallet', async () => {
    const { provider } = setUp();
    const signer = await new BrowserProvider(provider).getSigner();
    const value = { to: OTHER_ADDRESS, amount: 42n, contents: 'Hello, Bob!' };
    const types = { Mail: [...TYPED_DATA.types.Mail] };
    const signature = await signer.signTypedData(TYPED_DATA.domain, types, value);
    expect(ethersVerifyTypedData(TYPED_DATA.domain, types, value, signature)).toBe(TEST_ADDRESS);
  });

  it('switches chains: the provider reads the new id and chainChanged fires with it in hex', async () => {
    const { provider } = setUp();
    const changes: string[] = [];
    provider.on('chainChanged', (chainId) => changes.push(chainId));
    const browserProvider = new BrowserProvider(provider);
    expect((await browserProvider.getNetwork()).chainId).toBe(31337n);

    await browserProvider.send('wallet_switchEthereumChain', [{ chainId: '0x539' }]);

    expect(changes).toEqual(['0x539']);
    // ethers pins a provider to the network it first saw, so an app makes a new one on chainChanged.
    const switched = new BrowserProvider(provider);
    expect((await switched.getNetwork()).chainId).toBe(1337n);
    // And the wallet now sends on the new chain.
    const to = freshAddress();
    const receipt = await (await (await switched.getSigner()).sendTransaction({ to, value: 5n })).wait();
    expect(receipt?.status).toBe(1);
    expect(await balanceOf(second, to)).toBe(5n);
    expect(await balanceOf(first, to)).toBe(0n);
  });
});

describe('createEmbeddedProvider', () => {
  it('answers eth_accounts, eth_requestAccounts and eth_chainId itself', async () => {
    const { provider } = setUp();
    expect(await call(provider, { method: 'eth_accounts' })).toEqual([TEST_ADDRESS]);
    expect(await call(provider, { method: 'eth_requestAccounts' })).toEqual([TEST_ADDRESS]);
    expect(await call(provider, { method: 'eth_chainId' })).toBe('0x7a69');
  });

  it('forwards reads to the current chain', async () => {
    const { provider } = setUp();
    const to = freshAddress();
    expect(await call(provider, { method: 'eth_getBalance', params: [to, 'latest'] })).toBe('0x0');
    expect(await call(provider, { method: 'eth_blockNumber' })).toBe(
      await first.request({ method: 'eth_blockNumber' }),
    );
  });

  it('refuses with 4001 when approve answers false, and sends nothing', async () => {
    const approvals: unknown[] = [];
    const { provider, counts } = setUp({
      approve: async (request) => {
        approvals.push(request);
        return false;
      },
    });
    const to = freshAddress();
    const nonceBefore = await nonceOf(first, TEST_ADDRESS);
    const tx = { from: TEST_ADDRESS, to, value: '0x1000' };

    const error = await rejectionOf(call(provider, { method: 'eth_sendTransaction', params: [tx] }));

    expect(error).toBeInstanceOf(UserRejectedRequestError);
    expect(error.code).toBe(4001);
    expect(approvals).toEqual([{ method: 'eth_sendTransaction', params: [tx], chainId: 31337 }]);
    expect(counts.getAccount).toBe(0);
    expect(await balanceOf(first, to)).toBe(0n);
    expect(await nonceOf(first, TEST_ADDRESS)).toBe(nonceBefore);
  });

  it('asks approve before every signing request and signs once it answers true', async () => {
    const methods: string[] = [];
    const { provider, counts } = setUp({
      approve: async ({ method }) => {
        methods.push(`${method} (key rebuilt ${counts.getAccount} times)`);
        return true;
      },
    });
    await call(provider, { method: 'personal_sign', params: ['0x68656c6c6f', TEST_ADDRESS] });
    await call(provider, {
      method: 'eth_signTypedData_v4',
      params: [
        TEST_ADDRESS,
        JSON.stringify(TYPED_DATA, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
      ],
    });
    expect(methods).toEqual([
      'personal_sign (key rebuilt 0 times)',
      'eth_signTypedData_v4 (key rebuilt 1 times)',
    ]);
  });

  it('refuses a transaction from another address with 4100', async () => {
    const { provider, counts } = setUp();
    const error = await rejectionOf(
      call(provider, {
        method: 'eth_sendTransaction',
        params: [{ from: OTHER_ADDRESS, to: OTHER_ADDRESS }],
      }),
    );
    expect(error).toBeInstanceOf(UnauthorizedProviderError);
    expect(error.code).toBe(4100);
    expect(counts.getAccount).toBe(0);
  });

  it('refuses to sign for another address with 4100', async () => {
    const { provider } = setUp();
    const error = await rejectionOf(
      call(provider, { method: 'personal_sign', params: ['0x68656c6c6f', OTHER_ADDRESS] }),
    );
    expect(error).toBeInstanceOf(UnauthorizedProviderError);
    expect(error.code).toBe(4100);
  });

  it('refuses typed data for another chain with -32602', async () => {
    const { provider } = setUp();
    const data = {
      ...TYPED_DATA,
      domain: { ...TYPED_DATA.domain, chainId: 1 },
      message: { ...TYPED_DATA.message, amount: '42' },
    };
    const error = await rejectionOf(
      call(provider, { method: 'eth_signTypedData_v4', params: [TEST_ADDRESS, data] }),
    );
    expect(error).toBeInstanceOf(InvalidParamsRpcError);
    expect(error.code).toBe(-32602);
  });

  it.each(['eth_sign', 'eth_signTransaction', 'wallet_addEthereumChain', 'wallet_watchAsset'])(
    'refuses %s with 4200',
    async (method) => {
      const { provider, counts } = setUp();
      const error = await rejectionOf(call(provider, { method, params: [TEST_ADDRESS, '0x1234'] }));
      expect(error).toBeInstanceOf(UnsupportedProviderMethodError);
      expect(error.code).toBe(4200);
      expect(counts.getAccount).toBe(0);
    },
  );

  it('fails every request with 4900 after disconnect(), and emits accountsChanged [] and disconnect', async () => {
    const { provider } = setUp();
    const events: unknown[] = [];
    provider.on('accountsChanged', (accounts) => events.push(['accountsChanged', accounts]));
    provider.on('disconnect', (error) => events.push(['disconnect', error.code]));

    provider.disconnect();
    provider.disconnect();

    expect(events).toEqual([
      ['accountsChanged', []],
      ['disconnect', 4900],
    ]);
    for (const method of ['eth_accounts', 'eth_chainId', 'eth_blockNumber', 'personal_sign']) {
      const error = await rejectionOf(call(provider, { method }));
      expect(error).toBeInstanceOf(ProviderDisconnectedError);
      expect(error.code).toBe(4900);
    }
  });

  it('refuses to switch to an unknown chain with 4902 and stays where it was', async () => {
    const { provider } = setUp();
    const changes: string[] = [];
    provider.on('chainChanged', (chainId) => changes.push(chainId));
    const error = await rejectionOf(
      call(provider, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    );
    expect(error).toBeInstanceOf(SwitchChainError);
    expect(error.code).toBe(4902);
    expect(error.message).toContain('Unrecognized chain ID "0x1"');
    expect(await call(provider, { method: 'eth_chainId' })).toBe('0x7a69');
    expect(changes).toEqual([]);
  });

  it.each([[[]], [[{}]], [[{ chainId: 1337 }]], [[{ chainId: 'dial' }]], [undefined]])(
    'refuses a malformed switch parameter %j with -32602',
    async (params) => {
      const { provider } = setUp();
      const error = await rejectionOf(call(provider, { method: 'wallet_switchEthereumChain', params }));
      expect(error).toBeInstanceOf(InvalidParamsRpcError);
      expect(error.code).toBe(-32602);
    },
  );

  it('does not emit chainChanged when switching to the current chain', async () => {
    const { provider } = setUp();
    const changes: string[] = [];
    provider.on('chainChanged', (chainId) => changes.push(chainId));
    expect(
      await call(provider, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }),
    ).toBeNull();
    expect(changes).toEqual([]);
  });

  it('fails with 4901 when the chain’s RPC cannot be reached', async () => {
    // Nothing listens on port 1; the default transport (viem's http) is used.
    const unreachable = createLocalChainDescription('http://127.0.0.1:1');
    const provider = createEmbeddedProvider({
      address: TEST_ADDRESS,
      chains: [unreachable],
      chainId: unreachable.id,
      getAccount: async () => privateKeyToAccount(TEST_PRIVATE_KEY),
    });
    const error = await rejectionOf(call(provider, { method: 'eth_blockNumber' }));
    expect(error).toBeInstanceOf(ChainDisconnectedError);
    expect(error.code).toBe(4901);
  }, 15_000);

  it('rebuilds the account for each signing request, and never for others', async () => {
    const { provider, counts } = setUp();
    await call(provider, { method: 'eth_accounts' });
    await call(provider, { method: 'eth_getBalance', params: [TEST_ADDRESS, 'latest'] });
    expect(counts.getAccount).toBe(0);

    await call(provider, { method: 'personal_sign', params: ['0x01', TEST_ADDRESS] });
    await call(provider, { method: 'personal_sign', params: ['0x02', TEST_ADDRESS] });
    expect(counts.getAccount).toBe(2);

    await call(provider, {
      method: 'eth_sendTransaction',
      params: [{ from: TEST_ADDRESS, to: freshAddress(), value: '0x1' }],
    });
    expect(counts.getAccount).toBe(3);
  });

  it('refuses with 4100 when getAccount gives another account', async () => {
    const { provider } = setUp({ getAccount: async () => privateKeyToAccount(generatePrivateKey()) });
    const error = await rejectionOf(
      call(provider, { method: 'personal_sign', params: ['0x01', TEST_ADDRESS] }),
    );
    expect(error).toBeInstanceOf(UnauthorizedProviderError);
    expect(error.code).toBe(4100);
  });

  it('emits connect with the chain id once, on the first request', async () => {
    const { provider } = setUp();
    const connects: unknown[] = [];
    provider.on('connect', (info) => connects.push(info));
    expect(connects).toEqual([]);
    await call(provider, { method: 'eth_chainId' });
    await call(provider, { method: 'eth_accounts' });
    expect(connects).toEqual([{ chainId: numberToHex(31337) }]);
  });

  it('stops calling a listener once it is removed', async () => {
    const { provider } = setUp();
    const changes: string[] = [];
    const listener = (chainId: string) => changes.push(chainId);
    provider.on('chainChanged', listener);
    await call(provider, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x539' }] });
    provider.removeListener('chainChanged', listener);
    await call(provider, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] });
    expect(changes).toEqual(['0x539']);
  });

  it('sends with wallet_sendTransaction too', async () => {
    const { provider } = setUp();
    const to = freshAddress();
    const hash = await call(provider, {
      method: 'wallet_sendTransaction',
      params: [{ from: TEST_ADDRESS, to, value: '0x2a' }],
    });
    const receipt = (await first.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: string;
    };
    expect(receipt.status).toBe('0x1');
    expect(await balanceOf(first, to)).toBe(42n);
  });

  it('passes eth_sendRawTransaction to the chain without asking approve or rebuilding the key', async () => {
    const approvals: string[] = [];
    const { provider, counts } = setUp({
      approve: async ({ method }) => {
        approvals.push(method);
        return true;
      },
    });
    const other = privateKeyToAccount(generatePrivateKey());
    const to = freshAddress();
    // Fund another account, then send its own pre-signed transaction through the provider.
    await call(provider, {
      method: 'eth_sendTransaction',
      params: [{ from: TEST_ADDRESS, to: other.address, value: numberToHex(10n ** 18n) }],
    });
    const signed = await other.signTransaction({
      chainId: 31337,
      to,
      value: 3n,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    });

    await call(provider, { method: 'eth_sendRawTransaction', params: [signed] });

    expect(await balanceOf(first, to)).toBe(3n);
    expect(approvals).toEqual(['eth_sendTransaction']);
    expect(counts.getAccount).toBe(1);
  });

  it.each([
    ['an unknown field', { from: TEST_ADDRESS, to: OTHER_ADDRESS, value: '0x1', authorizationList: [] }],
    ['a value that is not hex', { from: TEST_ADDRESS, to: OTHER_ADDRESS, value: 1 }],
    ['a recipient that is not an address', { from: TEST_ADDRESS, to: '0x1234', value: '0x1' }],
    ['another chain id', { from: TEST_ADDRESS, to: OTHER_ADDRESS, value: '0x1', chainId: '0x539' }],
    ['gasPrice with maxFeePerGas', { from: TEST_ADDRESS, gasPrice: '0x1', maxFeePerGas: '0x1' }],
  ])('refuses a transaction with %s with -32602, before approval', async (_, tx) => {
    const approvals: string[] = [];
    const { provider, counts } = setUp({
      approve: async ({ method }) => {
        approvals.push(method);
        return true;
      },
    });
    const error = await rejectionOf(call(provider, { method: 'eth_sendTransaction', params: [tx] }));
    expect(error).toBeInstanceOf(InvalidParamsRpcError);
    expect(error.code).toBe(-32602);
    expect(approvals).toEqual([]);
    expect(counts.getAccount).toBe(0);
  });

  it('refuses with 4001 when approve throws, keeping its error as the cause', async () => {
    const failure = new Error('the approval sheet crashed');
    const { provider, counts } = setUp({
      approve: async () => {
        throw failure;
      },
    });
    const error = await rejectionOf(
      call(provider, { method: 'personal_sign', params: ['0x01', TEST_ADDRESS] }),
    );
    expect(error).toBeInstanceOf(UserRejectedRequestError);
    expect(error.code).toBe(4001);
    expect(error.cause).toBe(failure);
    expect(counts.getAccount).toBe(0);
  });

  it('refuses with 4100 when getAccount fails, keeping its error as the cause', async () => {
    const failure = new DialError('device_share_missing');
    const { provider } = setUp({
      getAccount: async () => {
        throw failure;
      },
    });
    const error = await rejectionOf(
      call(provider, { method: 'personal_sign', params: ['0x01', TEST_ADDRESS] }),
    );
    expect(error).toBeInstanceOf(UnauthorizedProviderError);
    expect(error.code).toBe(4100);
    expect(error.cause).toBe(failure);
  });

  it('passes the chain’s own error through unchanged', async () => {
    const { provider } = setUp();
    const error = await rejectionOf(call(provider, { method: 'eth_sendRawTransaction', params: ['0x1234'] }));
    // EDR's answer to bytes that are no transaction: -32602 with its own message.
    expect(error).toBeInstanceOf(LocalChainRpcError);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid transaction type 18.');
  });

  it('refuses a starting chain that is not one of its chains with unsupported_chain', () => {
    let error: unknown;
    try {
      setUp({ chainId: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('unsupported_chain');
  });
});

/**
 * A transport to the first local chain that records each request's start and end in one sequence, and
 * refuses eth_fillTransaction as many nodes do (so a provider that asked for it would show it here). The
 * account's rebuilding is recorded too, as `getAccount`. Each answer is held until the next turn of the
 * event loop, as a network's would be: the in-process chain answers within microtasks, before a request
 * started beside it has even reached the transport.
 */
function recordingSetUp() {
  const journal: Array<{ event: 'start' | 'end'; method: string; id: number }> = [];
  let nextId = 0;
  const track = async <T>(method: string, run: () => Promise<T>): Promise<T> => {
    const id = nextId++;
    journal.push({ event: 'start', method, id });
    try {
      return await run();
    } finally {
      await new Promise((resolve) => setImmediate(resolve));
      journal.push({ event: 'end', method, id });
    }
  };
  const request = ((args: { method: string; params?: unknown }) =>
    track(args.method, async () => {
      if (args.method === 'eth_fillTransaction') {
        throw new LocalChainRpcError(-32601, 'the method eth_fillTransaction does not exist');
      }
      return first.request(args as Parameters<EIP1193RequestFn>[0]);
    })) as EIP1193RequestFn;
  const { provider } = setUp({
    transport: () => request,
    getAccount: () => track('getAccount', async () => privateKeyToAccount(TEST_PRIVATE_KEY)),
  });
  return { provider, journal };
}

/**
 * The requests made before eth_sendRawTransaction, as rounds: a request that started after another one had
 * ended is a round after it (the longest such chain is the number of rounds); requests in flight together
 * are one round.
 */
function roundsBeforeSending(journal: ReadonlyArray<{ event: 'start' | 'end'; method: string; id: number }>) {
  const sending = journal.findIndex(
    (entry) => entry.event === 'start' && entry.method === 'eth_sendRawTransaction',
  );
  expect(sending).toBeGreaterThanOrEqual(0);
  const before = journal.slice(0, sending);
  const round = new Map<number, number>();
  for (const [index, entry] of before.entries()) {
    if (entry.event !== 'start') continue;
    const endedEarlier = before
      .slice(0, index)
      .filter((other) => other.event === 'end')
      .map((other) => round.get(other.id) ?? 0);
    round.set(entry.id, Math.max(0, ...endedEarlier) + 1);
  }
  const methods = before.filter((entry) => entry.event === 'start').map((entry) => entry.method);
  return { rounds: Math.max(0, ...round.values()), methods };
}

async function receiptOf(hash: unknown) {
  const receipt = (await first.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
    status: string;
  };
  const transaction = (await first.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    nonce: string;
    gas: string;
    type: string;
    maxFeePerGas?: string;
    maxPriorityFeePerGas?: string;
    gasPrice?: string;
  };
  return { receipt, transaction };
}

describe('createEmbeddedProvider preparing a transaction', () => {
  it('reads what a bare transaction lacks at once, rebuilding the key meanwhile, and never eth_fillTransaction', async () => {
    const { provider, journal } = recordingSetUp();
    const to = freshAddress();
    const nonce = await nonceOf(first, TEST_ADDRESS);

    const hash = await call(provider, {
      method: 'eth_sendTransaction',
      params: [{ from: TEST_ADDRESS, to, value: '0x2a' }],
    });

    const { rounds, methods } = roundsBeforeSending(journal);
    expect(methods).not.toContain('eth_fillTransaction');
    expect(methods).toEqual(
      expect.arrayContaining([
        'getAccount',
        'eth_getTransactionCount',
        'eth_estimateGas',
        'eth_getBlockByNumber',
      ]),
    );
    // The nonce, the gas, the block and the key in one round; the priority fee after the block (viem's fee
    // estimate reads the block first).
    expect(rounds).toBeLessThanOrEqual(2);
    const { receipt, transaction } = await receiptOf(hash);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(transaction.nonce)).toBe(nonce);
    expect(transaction.type).toBe('0x2');
    expect(await balanceOf(first, to)).toBe(42n);
  });

  it('makes no request but eth_sendRawTransaction when the app gives nonce, type, gas and fees', async () => {
    const { provider, journal } = recordingSetUp();
    const to = freshAddress();
    const nonce = await nonceOf(first, TEST_ADDRESS);
    const block = (await first.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as {
      baseFeePerGas: string;
    };
    const maxFeePerGas = BigInt(block.baseFeePerGas) * 2n + 1_000n;

    const hash = await call(provider, {
      method: 'eth_sendTransaction',
      params: [
        {
          from: TEST_ADDRESS,
          to,
          value: '0x7',
          nonce: numberToHex(nonce),
          type: '0x2',
          gas: numberToHex(21_000n),
          maxFeePerGas: numberToHex(maxFeePerGas),
          maxPriorityFeePerGas: numberToHex(1_000n),
        },
      ],
    });

    const { rounds, methods } = roundsBeforeSending(journal);
    expect(methods).toEqual(['getAccount']);
    expect(rounds).toBe(1);
    expect(journal.filter((entry) => entry.event === 'start').map((entry) => entry.method)).toEqual([
      'getAccount',
      'eth_sendRawTransaction',
    ]);
    const { receipt, transaction } = await receiptOf(hash);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(transaction.nonce)).toBe(nonce);
    expect(BigInt(transaction.gas)).toBe(21_000n);
    expect(BigInt(transaction.maxFeePerGas ?? '0x0')).toBe(maxFeePerGas);
    expect(BigInt(transaction.maxPriorityFeePerGas ?? '0x0')).toBe(1_000n);
    expect(await balanceOf(first, to)).toBe(7n);
  });

  it('keeps a legacy gas price as given, estimating only the gas and the nonce', async () => {
    const { provider, journal } = recordingSetUp();
    const to = freshAddress();
    const gasPrice = BigInt((await first.request({ method: 'eth_gasPrice' })) as string) * 2n;

    const hash = await call(provider, {
      method: 'eth_sendTransaction',
      params: [{ from: TEST_ADDRESS, to, value: '0x3', gasPrice: numberToHex(gasPrice) }],
    });

    const { rounds, methods } = roundsBeforeSending(journal);
    expect([...methods].sort()).toEqual(['eth_estimateGas', 'eth_getTransactionCount', 'getAccount']);
    expect(rounds).toBe(1);
    const { receipt, transaction } = await receiptOf(hash);
    expect(receipt.status).toBe('0x1');
    expect(transaction.type).toBe('0x0');
    expect(BigInt(transaction.gasPrice ?? '0x0')).toBe(gasPrice);
  });

  it('refuses a maxFeePerGas below the priority fee it estimates, as viem does, and sends nothing', async () => {
    const { provider, journal } = recordingSetUp();
    const error = await rejectionOf(
      call(provider, {
        method: 'eth_sendTransaction',
        params: [{ from: TEST_ADDRESS, to: freshAddress(), value: '0x1', maxFeePerGas: '0x0' }],
      }),
    );
    expect(findCause(error, (cause) => cause instanceof MaxFeePerGasTooLowError)).toBeDefined();
    expect(journal.map((entry) => entry.method)).not.toContain('eth_sendRawTransaction');
  });
});
