import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  isAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';

/** Options of {@link sendFromFaucet}. */
export interface SendFromFaucetOptions {
  /** The chain's JSON-RPC endpoint, e.g. a {@link DevChain}'s `url`. */
  rpcUrl: string;
  /** The chain id the endpoint must report; the transaction is signed for it (EIP-155). */
  chainId: number;
  to: Address;
  /** In wei. */
  value: bigint;
  /** Defaults to {@link DEV_FAUCET_PRIVATE_KEY}, the dev chain's pre-funded account. */
  faucetPrivateKey?: Hex;
}

/** How long to wait for the transfer to be mined; a dev chain mines at once, a testnet takes seconds. */
const RECEIPT_TIMEOUT_MS = 60_000;
const RECEIPT_POLLING_MS = 1_000;

/**
 * Per faucet account (chain id + address), the tail of the sends in flight from this process.
 *
 * Why serialise: viem picks a transaction's nonce with `eth_getTransactionCount(faucet, 'pending')` just
 * before signing. Two sends that overlap both read the same count, sign the same nonce, and the node keeps
 * only one of them ("nonce too low" or a replaced transaction). So each send from one account waits for the
 * previous one to be *accepted by the node* (not mined: from then on the pending count includes it), and
 * only the receipt waits run in parallel. The key leaves out the URL on purpose: `localhost` and
 * `127.0.0.1` reach the same account. This covers one process only; several processes sharing one faucet
 * key need a faucet per process or a node-side lock.
 */
const sendQueues = new Map<string, Promise<void>>();

function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = sendQueues.get(key) ?? Promise.resolve();
  const result = previous.then(task);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  sendQueues.set(key, tail);
  void tail.then(() => {
    if (sendQueues.get(key) === tail) sendQueues.delete(key);
  });
  return result;
}

/**
 * Sends `value` wei from the faucet account to `to`, waits until the transfer is mined, and returns its hash.
 * Throws when the endpoint is on another chain, the faucet cannot pay, or the transfer reverted.
 *
 * @example
 * const chain = await startDevChain({ port: 0 });
 * await sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to, value: parseEther('1') });
 */
export async function sendFromFaucet(options: SendFromFaucetOptions): Promise<Hex> {
  const { to, value } = options;
  if (!isAddress(to, { strict: false })) throw new TypeError(`Not an address: ${String(to)}`);
  if (typeof value !== 'bigint' || value < 0n) {
    throw new RangeError(`The value must be a non-negative bigint of wei, not ${String(value)}`);
  }
  return sendFaucetTransaction(options, { to, value }, (hash) => `The faucet transfer ${hash} to ${to}`);
}

/** Where and as whom {@link sendFaucetTransaction} sends. */
export interface FaucetEndpoint {
  rpcUrl: string;
  chainId: number;
  faucetPrivateKey?: Hex | undefined;
}

/**
 * Sends one transaction from the faucet account, in this process's per-account queue (so that its nonce
 * never collides with another send from the same faucet), waits until it is mined, and returns its hash.
 * Shared by {@link sendFromFaucet}, `mintTestUsdc` and the test contract wallet's deployments (no `to`: a
 * contract creation); `describe` names the transaction in the error thrown when it reverts.
 */
export async function sendFaucetTransaction(
  endpoint: FaucetEndpoint,
  transaction: { to?: Address; value?: bigint; data?: Hex },
  describe: (hash: Hex) => string,
): Promise<Hex> {
  const { rpcUrl, chainId } = endpoint;
  const account = privateKeyToAccount(endpoint.faucetPrivateKey ?? DEV_FAUCET_PRIVATE_KEY);
  const chain = defineChain({
    id: chainId,
    name: `Chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const walletClient = createWalletClient({ account, chain, transport });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: RECEIPT_POLLING_MS });

  // With a local account viem signs for `chainId` without asking the node; ask first, so that a wrong URL
  // gets a clear error rather than the node's "invalid parameters" for a signature it cannot use.
  const actualChainId = await publicClient.getChainId();
  if (actualChainId !== chainId) {
    throw new Error(`${rpcUrl} serves chain ${actualChainId}, not chain ${chainId}; nothing was sent`);
  }
  const hash = await serialise(`${chainId}:${account.address.toLowerCase()}`, () =>
    walletClient.sendTransaction(transaction),
  );
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
  if (receipt.status !== 'success') {
    throw new Error(`${describe(hash)} reverted in block ${receipt.blockNumber}`);
  }
  return hash;
}
