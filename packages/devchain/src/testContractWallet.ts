import {
  type Address,
  createPublicClient,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
} from 'viem';
import {
  TEST_CONTRACT_WALLET_BYTECODE,
  TEST_CONTRACT_WALLET_FACTORY_ABI,
  TEST_CONTRACT_WALLET_FACTORY_BYTECODE,
} from './contracts/testContractWalletArtifact.js';
import { type FaucetEndpoint, sendFaucetTransaction } from './sendFromFaucet.js';

/**
 * The test contract wallet (TestContractWallet.sol) on a local chain: an ERC-1271 account whose owner key
 * signs for it, deployed through a CREATE2 factory so that its address is known before it exists (ERC-6492).
 * For tests only.
 */

/**
 * Deploys the test contract wallet's factory from the faucet account, waits until it is mined, and returns
 * its address.
 *
 * @example
 * const factory = await deployTestContractWalletFactory({ rpcUrl: chain.url, chainId: chain.chainId });
 */
export async function deployTestContractWalletFactory(endpoint: FaucetEndpoint): Promise<Address> {
  const hash = await sendFaucetTransaction(
    endpoint,
    { data: TEST_CONTRACT_WALLET_FACTORY_BYTECODE },
    (txHash) => `The test contract wallet factory's deployment ${txHash}`,
  );
  const client = createPublicClient({ transport: http(endpoint.rpcUrl) });
  const { contractAddress } = await client.getTransactionReceipt({ hash });
  if (contractAddress === null || contractAddress === undefined) {
    throw new Error(`The deployment ${hash} created no contract`);
  }
  return contractAddress;
}

/** The address `factory` deploys the wallet of `owner` with `salt` at (CREATE2), deployed yet or not. */
export function testContractWalletAddress(factory: Address, owner: Address, salt: Hex): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt,
    bytecode: encodeDeployData({
      abi: [
        { type: 'constructor', inputs: [{ name: 'owner_', type: 'address' }], stateMutability: 'nonpayable' },
      ],
      bytecode: TEST_CONTRACT_WALLET_BYTECODE,
      args: [owner],
    }),
  });
}

/** The factory call that deploys the wallet of `owner` with `salt`: what an ERC-6492 signature carries. */
export function testContractWalletDeployCall(owner: Address, salt: Hex): Hex {
  return encodeFunctionData({
    abi: TEST_CONTRACT_WALLET_FACTORY_ABI,
    functionName: 'deploy',
    args: [owner, salt],
  });
}

/**
 * Deploys the wallet of `owner` with `salt` through `factory` from the faucet account, waits until it is
 * mined, and returns its address (that of {@link testContractWalletAddress}).
 */
export async function deployTestContractWallet(
  endpoint: FaucetEndpoint,
  factory: Address,
  owner: Address,
  salt: Hex,
): Promise<Address> {
  await sendFaucetTransaction(
    endpoint,
    { to: factory, data: testContractWalletDeployCall(owner, salt) },
    (hash) => `The test contract wallet's deployment ${hash}`,
  );
  return testContractWalletAddress(factory, owner, salt);
}

/** A 32-byte salt from a small number, for tests that deploy several wallets of one owner. */
export function testContractWalletSalt(n: number): Hex {
  return encodeAbiParameters([{ type: 'uint256' }], [BigInt(n)]);
}
