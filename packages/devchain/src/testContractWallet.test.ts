import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Address, createPublicClient, type Hex, hashMessage, http, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CONTRACT_WALLET_ABI,
  TEST_CONTRACT_WALLET_BYTECODE,
  TEST_CONTRACT_WALLET_COMPILER,
  TEST_CONTRACT_WALLET_FACTORY_ABI,
  TEST_CONTRACT_WALLET_FACTORY_BYTECODE,
} from './contracts/testContractWalletArtifact.js';
import { type DevChain, startDevChain } from './devChain.js';
import {
  deployTestContractWallet,
  deployTestContractWalletFactory,
  testContractWalletAddress,
  testContractWalletSalt,
} from './testContractWallet.js';

/** ERC-1271's answer for a valid signature. */
const MAGIC_VALUE = '0x1626ba7e';

describe('the test contract wallet artifact', () => {
  it('is what solc 0.8.37 compiles TestContractWallet.sol to today (npm run compile:contracts)', async () => {
    const script = fileURLToPath(new URL('../../../scripts/compile-contracts.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [
      script,
      '--print',
      'TestContractWallet.sol',
    ]);
    const compiled = JSON.parse(stdout) as {
      compiler: string;
      contracts: Record<string, { abi: unknown; bytecode: string }>;
    };
    expect(compiled.compiler).toBe(TEST_CONTRACT_WALLET_COMPILER);
    expect(compiled.contracts.TestContractWallet?.bytecode).toBe(TEST_CONTRACT_WALLET_BYTECODE);
    expect(compiled.contracts.TestContractWallet?.abi).toEqual(TEST_CONTRACT_WALLET_ABI);
    expect(compiled.contracts.TestContractWalletFactory?.bytecode).toBe(
      TEST_CONTRACT_WALLET_FACTORY_BYTECODE,
    );
    expect(compiled.contracts.TestContractWalletFactory?.abi).toEqual(TEST_CONTRACT_WALLET_FACTORY_ABI);
  }, 60_000);
});

describe('the test contract wallet on the dev chain', () => {
  let chain: DevChain;
  let client: PublicClient;
  let factory: Address;
  const owner = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const endpoint = () => ({ rpcUrl: chain.url, chainId: chain.chainId });
  const isValidSignature = (wallet: Address, hash: Hex, signature: Hex) =>
    client.readContract({
      address: wallet,
      abi: TEST_CONTRACT_WALLET_ABI,
      functionName: 'isValidSignature',
      args: [hash, signature],
    });

  beforeAll(async () => {
    chain = await startDevChain({ port: 0 });
    client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
    factory = await deployTestContractWalletFactory(endpoint());
  });
  afterAll(async () => {
    await chain.close();
  });

  it('is deployed by the factory at the CREATE2 address predicted for its owner and salt', async () => {
    const salt = testContractWalletSalt(1);
    const predicted = testContractWalletAddress(factory, owner.address, salt);
    expect(await client.getCode({ address: predicted })).toBeUndefined();
    const wallet = await deployTestContractWallet(endpoint(), factory, owner.address, salt);
    expect(wallet).toBe(predicted);
    expect(await client.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(
      await client.readContract({ address: wallet, abi: TEST_CONTRACT_WALLET_ABI, functionName: 'owner' }),
    ).toBe(owner.address);
    // Another salt, another wallet of the same owner.
    expect(testContractWalletAddress(factory, owner.address, testContractWalletSalt(2))).not.toBe(wallet);
  });

  it("says a signature is valid when its owner signed the hash, and invalid for another key's", async () => {
    const wallet = await deployTestContractWallet(
      endpoint(),
      factory,
      owner.address,
      testContractWalletSalt(3),
    );
    const hash = hashMessage('hello');
    expect(await isValidSignature(wallet, hash, await owner.sign({ hash }))).toBe(MAGIC_VALUE);
    expect(await isValidSignature(wallet, hash, await stranger.sign({ hash }))).toBe('0xffffffff');
    // The owner's signature of another hash.
    expect(await isValidSignature(wallet, hashMessage('other'), await owner.sign({ hash }))).toBe(
      '0xffffffff',
    );
    // Not 65 bytes.
    expect(await isValidSignature(wallet, hash, '0x1234')).toBe('0xffffffff');
  });
});
