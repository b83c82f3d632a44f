import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem';
import {
  type BundlerClient,
  createBundlerClient,
  entryPoint08Address,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountAbstractionBytecode,
  DEV_PAYMASTER_DEPOSIT_WEI,
  deterministicAddress,
} from './accountAbstraction.js';
import { type Bundler, startBundler } from './bundler.js';
import {
  DIAL_PAYMASTER_ABI,
  DIAL_PAYMASTER_BYTECODE,
  DIAL_PAYMASTER_COMPILER,
} from './contracts/dialPaymasterArtifact.js';
import { DEV_PAYMASTER_SIGNER_ADDRESS, DEV_PAYMASTER_SIGNER_PRIVATE_KEY } from './devAccount.js';
import { type DevChain, startDevChain } from './devChain.js';

/** Simple7702Account's address on every public chain (viem's default implementation for EntryPoint v0.8). */
const SIMPLE_7702_ACCOUNT = '0xe6Cae83BdE06E4c305530e199D7217f42808555B';

describe("ERC-4337's published contracts", () => {
  it('land at the addresses they have on every public chain (so the pinned package holds the deployed bytecode)', () => {
    expect(
      deterministicAddress(
        accountAbstractionBytecode('EntryPoint'),
        '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
      ),
    ).toBe(entryPoint08Address);
    expect(
      deterministicAddress(
        accountAbstractionBytecode('Simple7702Account'),
        '0x0000000000000000000000000000000000000000000000000000000000000000',
      ),
    ).toBe(SIMPLE_7702_ACCOUNT);
  });

  it("Dial's paymaster artifact is what solc 0.8.37 compiles DialPaymaster.sol to today (npm run compile:contracts)", async () => {
    const script = fileURLToPath(new URL('../../../scripts/compile-contracts.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--print', 'DialPaymaster.sol']);
    const compiled = JSON.parse(stdout) as {
      compiler: string;
      contracts: Record<string, { abi: unknown; bytecode: string }>;
    };
    expect(compiled.compiler).toBe(DIAL_PAYMASTER_COMPILER);
    expect(Object.keys(compiled.contracts)).toEqual(['DialPaymaster']);
    expect(compiled.contracts.DialPaymaster?.bytecode).toBe(DIAL_PAYMASTER_BYTECODE);
    expect(compiled.contracts.DialPaymaster?.abi).toEqual(DIAL_PAYMASTER_ABI);
  }, 60_000);
});

describe('the dev chain with its bundler', () => {
  let chain: DevChain;
  let bundler: Bundler;
  let client: PublicClient;
  let local: Chain;
  let bundlerClient: BundlerClient;

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

  async function fundedOwner(wei: bigint) {
    const owner = privateKeyToAccount(generatePrivateKey());
    if (wei > 0n) {
      const faucet = createWalletClient({
        chain: local,
        transport: http(chain.url),
        account: privateKeyToAccount(chain.faucet.privateKey),
      });
      await client.waitForTransactionReceipt({
        hash: await faucet.sendTransaction({ to: owner.address, value: wei }),
      });
    }
    return owner;
  }

  it('has EntryPoint v0.8, Simple7702Account and the paymaster deployed, the paymaster funded and signed for by the dev signer', async () => {
    expect(chain.accountAbstraction.entryPoint).toBe(entryPoint08Address);
    expect(chain.accountAbstraction.simple7702Account).toBe(SIMPLE_7702_ACCOUNT);
    for (const address of Object.values(chain.accountAbstraction)) {
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    const paymaster = { address: chain.accountAbstraction.paymaster, abi: DIAL_PAYMASTER_ABI } as const;
    expect(await client.readContract({ ...paymaster, functionName: 'getDeposit' })).toBe(
      DEV_PAYMASTER_DEPOSIT_WEI,
    );
    expect(await client.readContract({ ...paymaster, functionName: 'signer' })).toBe(
      DEV_PAYMASTER_SIGNER_ADDRESS,
    );
    expect(privateKeyToAccount(DEV_PAYMASTER_SIGNER_PRIVATE_KEY).address).toBe(DEV_PAYMASTER_SIGNER_ADDRESS);
    expect(await client.readContract({ ...paymaster, functionName: 'entryPoint' })).toBe(entryPoint08Address);
    // The deployments cost the faucet nothing: it holds what it was started with.
    expect(await client.getBalance({ address: chain.faucet.address })).toBe(10_000n * 10n ** 18n);
  });

  it('bundles an EIP-7702 user operation: the key delegates to Simple7702Account, keeps its address and sends a batch', async () => {
    const owner = await fundedOwner(parseEther('1'));
    const account = await toSimple7702SmartAccount({ client, owner });
    expect(account.address).toBe(owner.address);
    const first = newAddress();
    const second = newAddress();
    const authorization = await owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [
        { to: first, value: 1000n },
        { to: second, value: 2000n },
      ],
      authorization,
    });
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(true);
    expect(receipt.sender).toBe(owner.address);
    expect(await client.getCode({ address: owner.address })).toBe(
      `0xef0100${SIMPLE_7702_ACCOUNT.slice(2).toLowerCase()}`,
    );
    expect(await client.getBalance({ address: first })).toBe(1000n);
    expect(await client.getBalance({ address: second })).toBe(2000n);
  }, 60_000);

  it("refuses a user operation signed by another key (the account's own check, run by the EntryPoint)", async () => {
    const owner = await fundedOwner(parseEther('1'));
    const stranger = privateKeyToAccount(generatePrivateKey());
    const account = await toSimple7702SmartAccount({ client, owner });
    const authorization = await owner.signAuthorization({
      chainId: chain.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
      contractAddress: SIMPLE_7702_ACCOUNT,
    });
    const prepared = await bundlerClient.prepareUserOperation({
      account,
      calls: [{ to: newAddress(), value: 1n }],
      authorization,
    });
    const forged = await (await toSimple7702SmartAccount({ client, owner: stranger })).signUserOperation({
      ...prepared,
      sender: owner.address,
    } as never);
    await expect(
      bundlerClient.sendUserOperation({ ...prepared, account, signature: forged as Hex } as never),
    ).rejects.toThrow(/signature|AA24/i);
  }, 60_000);
});

function newAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}
