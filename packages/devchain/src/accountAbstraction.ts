import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  type Address,
  concat,
  type EIP1193RequestFn,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DIAL_PAYMASTER_ABI, DIAL_PAYMASTER_BYTECODE } from './contracts/dialPaymasterArtifact.js';
import { DETERMINISTIC_DEPLOYER } from './deterministicDeployer.js';
import { DEV_FAUCET_PRIVATE_KEY, DEV_PAYMASTER_SIGNER_ADDRESS } from './devAccount.js';

/** The salts eth-infinitism deployed EntryPoint v0.8 and Simple7702Account with on every public chain. */
const ENTRY_POINT_SALT: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9';
const SIMPLE_7702_ACCOUNT_SALT: Hex = '0x0000000000000000000000000000000000000000000000000000000000000000';

/** What the paymaster holds at the EntryPoint on a new local chain, to pay users' fees with. */
export const DEV_PAYMASTER_DEPOSIT_WEI = parseEther('1000');

/** ERC-4337 on a local chain: see {@link deployAccountAbstraction}. */
export interface AccountAbstractionContracts {
  /** EntryPoint v0.8, at its address on every public chain. */
  entryPoint: Address;
  /** eth-infinitism's Simple7702Account, at its address on every public chain. */
  simple7702Account: Address;
  /** Dial's verifying paymaster, signed for by `DEV_PAYMASTER_SIGNER_ADDRESS`, with its deposit. */
  paymaster: Address;
}

interface Artifact {
  bytecode: Hex;
}

/**
 * The creation bytecode eth-infinitism published in `@account-abstraction/contracts` 0.8.0 (its
 * `artifacts/`): the bytecode deployed on every public chain. It is read from the pinned package rather
 * than compiled here, because only that exact bytecode lands at the canonical addresses (a test checks both).
 */
export function accountAbstractionBytecode(name: 'EntryPoint' | 'Simple7702Account'): Hex {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`@account-abstraction/contracts/artifacts/${name}.json`);
  return (JSON.parse(readFileSync(path, 'utf8')) as Artifact).bytecode;
}

/** Where CREATE2 through the deterministic deployer puts `bytecode` with `salt`. */
export function deterministicAddress(bytecode: Hex, salt: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', bytecode, salt, from: DETERMINISTIC_DEPLOYER });
}

/**
 * Sends the deployments of ERC-4337 on a new local chain through `request`, signed by the faucet from its
 * `nonce` on (the chain must have the deterministic deployer in its genesis block, and the faucet the
 * {@link DEV_PAYMASTER_DEPOSIT_WEI} to deposit): EntryPoint v0.8 and Simple7702Account at their public
 * addresses, then Dial's paymaster (owned by the faucet, signed for by `DEV_PAYMASTER_SIGNER_ADDRESS`) and
 * its deposit at the EntryPoint. Returns the contracts and the transactions' hashes; the caller mines them
 * and checks the receipts, so the dev chain's set-up fits in one block.
 */
export async function sendAccountAbstractionDeployments(
  request: EIP1193RequestFn,
  chainId: number,
  nonce: number,
): Promise<{ contracts: AccountAbstractionContracts; hashes: Hex[] }> {
  const faucet = privateKeyToAccount(DEV_FAUCET_PRIVATE_KEY);
  const entryPointCode = accountAbstractionBytecode('EntryPoint');
  const accountCode = accountAbstractionBytecode('Simple7702Account');
  const paymaster = getContractAddress({ from: faucet.address, nonce: BigInt(nonce + 2) });
  const transactions: { to?: Address; data: Hex; value?: bigint }[] = [
    { to: DETERMINISTIC_DEPLOYER, data: concat([ENTRY_POINT_SALT, entryPointCode]) },
    { to: DETERMINISTIC_DEPLOYER, data: concat([SIMPLE_7702_ACCOUNT_SALT, accountCode]) },
    {
      data: encodeDeployData({
        abi: DIAL_PAYMASTER_ABI,
        bytecode: DIAL_PAYMASTER_BYTECODE,
        args: [deterministicAddress(entryPointCode, ENTRY_POINT_SALT), DEV_PAYMASTER_SIGNER_ADDRESS],
      }),
    },
    // `deposit()`: the paymaster's balance at the EntryPoint, which pays the fees it sponsors.
    { to: paymaster, data: '0xd0e30db0', value: DEV_PAYMASTER_DEPOSIT_WEI },
  ];
  const hashes: Hex[] = [];
  for (const [index, transaction] of transactions.entries()) {
    const signed = await faucet.signTransaction({
      chainId,
      type: 'eip1559',
      nonce: nonce + index,
      ...transaction,
      gas: 8_000_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 0n,
    });
    hashes.push((await request({ method: 'eth_sendRawTransaction', params: [signed] })) as Hex);
  }
  return {
    contracts: {
      entryPoint: getAddress(deterministicAddress(entryPointCode, ENTRY_POINT_SALT)),
      simple7702Account: getAddress(deterministicAddress(accountCode, SIMPLE_7702_ACCOUNT_SALT)),
      paymaster,
    },
    hashes,
  };
}
