import { type DevChain, mintTestUsdc, sendFromFaucet } from '@dial/devchain';
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/**
 * Test helper: people with their own keys on a real local chain (a `DevChain`), sending real transactions
 * the way a Dial wallet does (signed here, EIP-1559, sent with `eth_sendRawTransaction`).
 */

/** The local chain as viem sees it, reached at `chain.url`. */
export function viemChain(chain: DevChain): Chain {
  return defineChain({
    id: chain.chainId,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.url] } },
  });
}

/** JSON-RPC to the chain, its test methods (`evm_*`) included. */
export function chainRequest(chain: DevChain, method: string, params: unknown[] = []): Promise<unknown> {
  const client = createPublicClient({ transport: http(chain.url) });
  return client.request({ method, params } as never);
}

/** Stops mining transactions as they arrive (they wait in the pool) until {@link mineBlock}. */
export async function pauseMining(chain: DevChain): Promise<void> {
  await chainRequest(chain, 'evm_setAutomine', [false]);
}

/** Mines every transaction as it arrives again (the dev chain's default). */
export async function resumeMining(chain: DevChain): Promise<void> {
  await chainRequest(chain, 'evm_setAutomine', [true]);
}

/** Mines one block with what waits in the pool. */
export async function mineBlock(chain: DevChain): Promise<void> {
  await chainRequest(chain, 'evm_mine');
}

/** Someone with a key of their own, funded with test ETH (and test USDC when asked). */
export interface ChainActor {
  account: PrivateKeyAccount;
  address: Address;
  /** Sends `value` wei to `to`; resolves with the hash once the node took it (mined or not). */
  sendNative(to: Address, value: bigint): Promise<Hex>;
  /** Calls the test USDC's `transfer(to, amount)`; `gas` set skips estimation (a reverting call is sent). */
  sendUsdc(to: Address, amount: bigint, options?: { gas?: bigint }): Promise<Hex>;
  /** Signs a native transfer without sending it: its hash, and the raw transaction to send later. */
  signNative(to: Address, value: bigint): Promise<{ hash: Hex; raw: Hex }>;
  /** Sends a transaction signed by {@link signNative}. */
  sendRaw(raw: Hex): Promise<Hex>;
}

/**
 * A new key, funded from the faucet with `eth` ETH (default 1) and `usdc` test USDC units (default none).
 * Funding waits until mined, so call it while the chain mines (not between pause and resume).
 */
export async function fundedActor(
  chain: DevChain,
  options: { eth?: bigint; usdc?: bigint } = {},
): Promise<ChainActor> {
  const account = privateKeyToAccount(generatePrivateKey());
  const endpoint = { rpcUrl: chain.url, chainId: chain.chainId };
  await sendFromFaucet({ ...endpoint, to: account.address, value: options.eth ?? parseEther('1') });
  if (options.usdc !== undefined) {
    await mintTestUsdc({ ...endpoint, usdc: chain.usdc, to: account.address, amount: options.usdc });
  }
  const wallet = createWalletClient({ account, chain: viemChain(chain), transport: http(chain.url) });
  const actor: ChainActor = {
    account,
    address: account.address,
    sendNative: (to, value) => wallet.sendTransaction({ to, value }),
    sendUsdc: (to, amount, { gas } = {}) =>
      wallet.sendTransaction({
        to: chain.usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
        ...(gas === undefined ? {} : { gas }),
      }),
    async signNative(to, value) {
      const request = await wallet.prepareTransactionRequest({ to, value });
      const raw = await wallet.signTransaction(request);
      return { hash: keccak256(raw), raw };
    },
    sendRaw: (serializedTransaction) => wallet.sendRawTransaction({ serializedTransaction }),
  };
  return actor;
}

/** A new key that holds nothing: an address to register as a wallet, for tests that send nothing from it. */
export function unfundedActor(): { address: Address } {
  return { address: privateKeyToAccount(generatePrivateKey()).address };
}
