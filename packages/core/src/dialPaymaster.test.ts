import {
  type Bundler,
  DEV_PAYMASTER_SIGNER_PRIVATE_KEY,
  type DevChain,
  DIAL_PAYMASTER_ABI,
  mintTestUsdc,
  startBundler,
  startDevChain,
} from '@dial/devchain';
import {
  type Chain,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  toHex,
} from 'viem';
import {
  type BundlerClient,
  createBundlerClient,
  entryPoint08Abi,
  type GetPaymasterDataParameters,
  toPackedUserOperation,
  toSimple7702SmartAccount,
  type UserOperation,
} from 'viem/account-abstraction';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIAL_PAYMASTER_GAS,
  decodeDialPaymasterData,
  dialPaymasterHash,
  ENTRY_POINT_V08,
  encodeDialPaymasterData,
  type PaymasterWindow,
  SIMPLE_7702_ACCOUNT,
} from './dialPaymaster.js';

describe("Dial's paymaster data", () => {
  it('encodes the window and the signature, and reads them back', () => {
    const signature = `0x${'ab'.repeat(65)}` as Hex;
    const data = encodeDialPaymasterData({ validUntil: 1_900_000_000, validAfter: 5 }, signature);
    expect(data).toBe(`0x0000713fb300000000000005${'ab'.repeat(65)}`);
    expect(decodeDialPaymasterData(data)).toEqual({ validUntil: 1_900_000_000, validAfter: 5, signature });
  });

  it('refuses a window outside uint48, a signature of another length and data of another length', () => {
    const signature = `0x${'ab'.repeat(65)}` as Hex;
    expect(() => encodeDialPaymasterData({ validUntil: 2 ** 48, validAfter: 0 }, signature)).toThrow(
      RangeError,
    );
    expect(() => encodeDialPaymasterData({ validUntil: -1, validAfter: 0 }, signature)).toThrow(RangeError);
    expect(() => encodeDialPaymasterData({ validUntil: 1, validAfter: 0 }, '0x1234')).toThrow(RangeError);
    expect(() => decodeDialPaymasterData('0x1234')).toThrow(RangeError);
  });
});

describe("Dial's paymaster on the local chain, through the real bundler", () => {
  let chain: DevChain;
  let bundler: Bundler;
  let local: Chain;
  let client: PublicClient;
  let bundlerClient: BundlerClient;
  const signer = privateKeyToAccount(DEV_PAYMASTER_SIGNER_PRIVATE_KEY);

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
    client = createPublicClient({ chain: local, transport: http(chain.url), cacheTime: 0 });
    bundlerClient = createBundlerClient({ client, transport: http(bundler.url), pollingInterval: 50 });
  }, 60_000);
  afterAll(async () => {
    await bundler?.close();
    await chain?.close();
  });

  const now = () => Math.floor(Date.now() / 1000);

  /** A paymaster that signs with `by` for `window`: the same steps as Dial's ERC-7677 service. */
  function paymaster(by: LocalAccount, window: () => PaymasterWindow) {
    const fields = (data: Hex) => ({
      paymaster: chain.accountAbstraction.paymaster,
      paymasterData: data,
      ...DIAL_PAYMASTER_GAS,
    });
    return {
      async getPaymasterStubData() {
        return fields(encodeDialPaymasterData(window(), `0x${'ff'.repeat(64)}1c`));
      },
      async getPaymasterData(operation: GetPaymasterDataParameters) {
        const open = window();
        const packed = toPackedUserOperation({ ...operation, ...fields('0x') } as unknown as UserOperation);
        const hash = dialPaymasterHash(packed, chain.chainId, chain.accountAbstraction.paymaster, open);
        return fields(encodeDialPaymasterData(open, await by.signMessage({ message: { raw: hash } })));
      },
    };
  }

  /** A new wallet with no ETH, delegated to Simple7702Account by its first (sponsored) operation. */
  async function emptyWallet() {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await toSimple7702SmartAccount({ client, owner });
    return { owner, account };
  }

  async function authorize(owner: PrivateKeyAccount) {
    return owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
  }

  it('computes the hash the contract computes (getHash), for an operation with an EIP-7702 marker', async () => {
    const { owner, account } = await emptyWallet();
    const operation = await bundlerClient.prepareUserOperation({
      account,
      calls: [{ to: signer.address, value: 0n }],
      authorization: await authorize(owner),
      paymaster: paymaster(signer, () => ({ validUntil: now() + 600, validAfter: 0 })),
    });
    const window = { validUntil: now() + 600, validAfter: 7 };
    const packed = toPackedUserOperation(operation as UserOperation);
    expect(
      await client.readContract({
        address: chain.accountAbstraction.paymaster,
        abi: DIAL_PAYMASTER_ABI,
        functionName: 'getHash',
        args: [packed, window.validUntil, window.validAfter],
      }),
    ).toBe(dialPaymasterHash(packed, chain.chainId, chain.accountAbstraction.paymaster, window));
    // Another chain, paymaster or window gives another hash: a signature is good for one of each.
    const base = dialPaymasterHash(packed, chain.chainId, chain.accountAbstraction.paymaster, window);
    expect(dialPaymasterHash(packed, 8453, chain.accountAbstraction.paymaster, window)).not.toBe(base);
    expect(dialPaymasterHash(packed, chain.chainId, signer.address, window)).not.toBe(base);
    expect(
      dialPaymasterHash(packed, chain.chainId, chain.accountAbstraction.paymaster, {
        ...window,
        validAfter: 8,
      }),
    ).not.toBe(base);
  }, 60_000);

  it('pays the fee of a wallet holding only USDC when the signer signed: the USDC lands and the wallet still holds 0 ETH', async () => {
    const { owner, account } = await emptyWallet();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: owner.address,
      amount: 5_000_000n,
    });
    const depositBefore = await deposit();
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [
        {
          to: chain.usdc,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 2_000_000n] }),
        },
      ],
      authorization: await authorize(owner),
      paymaster: paymaster(signer, () => ({ validUntil: now() + 600, validAfter: 0 })),
    });
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    expect(receipt.paymaster).toBe(chain.accountAbstraction.paymaster);
    expect(await client.getBalance({ address: owner.address })).toBe(0n);
    // The paymaster's deposit paid exactly what the EntryPoint charged.
    expect(depositBefore - (await deposit())).toBe(receipt.actualGasCost);
    const usdc = { address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf' } as const;
    expect(await client.readContract({ ...usdc, args: [to] })).toBe(2_000_000n);
    expect(await client.readContract({ ...usdc, args: [owner.address] })).toBe(3_000_000n);
  }, 60_000);

  it('refuses an operation signed for by another key, one whose window has closed, and a replayed one', async () => {
    const { owner, account } = await emptyWallet();
    const calls = [{ to: ENTRY_POINT_V08, value: 0n, data: '0x' as Hex }];
    const open = () => ({ validUntil: now() + 600, validAfter: 0 });
    // A good one lands (and delegates the wallet); sent again as it was, it is refused.
    const operation = await bundlerClient.prepareUserOperation({
      account,
      calls,
      authorization: await authorize(owner),
      paymaster: paymaster(signer, open),
    });
    const signed = { ...operation, signature: await account.signUserOperation(operation as never) };
    const hash = await bundlerClient.sendUserOperation(signed as never);
    expect((await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })).success).toBe(true);
    await expect(bundlerClient.sendUserOperation(signed as never)).rejects.toThrow();
    // The operation's nonce was used: the EntryPoint's next one for its key is one higher.
    expect(
      await client.readContract({
        address: ENTRY_POINT_V08,
        abi: entryPoint08Abi,
        functionName: 'getNonce',
        args: [owner.address, operation.nonce >> 64n],
      }),
    ).toBe(operation.nonce + 1n);

    // The EntryPoint itself (called directly, past any bundler) refuses another key's signature and a closed window.
    const handle = async (by: LocalAccount, window: () => PaymasterWindow) => {
      const next = await bundlerClient.prepareUserOperation({
        account,
        calls,
        paymaster: paymaster(by, window),
      });
      const packed = toPackedUserOperation({
        ...next,
        signature: await account.signUserOperation(next as never),
      } as UserOperation);
      return client.simulateContract({
        address: ENTRY_POINT_V08,
        abi: entryPoint08Abi,
        functionName: 'handleOps',
        args: [[packed], chain.faucet.address],
        account: chain.faucet.address,
      });
    };
    await expect(handle(signer, open)).resolves.toBeDefined();
    // FailedOp(0, reason): the reason's bytes are in the revert data the node reports.
    const failedOp = (reason: string) => new RegExp(`0x220266b6[0-9a-f]*${toHex(reason).slice(2)}`);
    await expect(handle(privateKeyToAccount(generatePrivateKey()), open)).rejects.toThrow(
      failedOp('AA34 signature error'),
    );
    await expect(handle(signer, () => ({ validUntil: now() - 60, validAfter: 0 }))).rejects.toThrow(
      failedOp('AA32 paymaster expired or not due'),
    );
    await expect(handle(signer, () => ({ validUntil: 0, validAfter: now() + 3600 }))).rejects.toThrow(
      failedOp('AA32 paymaster expired or not due'),
    );
  }, 60_000);

  async function deposit(): Promise<bigint> {
    return client.readContract({
      address: chain.accountAbstraction.paymaster,
      abi: DIAL_PAYMASTER_ABI,
      functionName: 'getDeposit',
    });
  }
});
