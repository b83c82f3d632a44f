import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type Transaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { type ChainConfig, chainRpcUrl, chainUsdcAddress } from './chainRpcUrl.js';
import { checkSignedTransaction } from './checkSignedTransaction.js';

/**
 * A transaction as the chain shows it (mined or still in the node's pool). Its fields are checked against
 * its hash and signature (see `checkSignedTransaction`), so they are the chain's, not the RPC's word.
 */
export interface ChainTransaction {
  /** `false` for a type a Dial wallet never sends, whose fields could not be checked: judge it by nothing. */
  supported: boolean;
  hash: Hex;
  /** EIP-55 checksummed, like `to`. */
  from: Address;
  /** `null` for a contract creation. */
  to: Address | null;
  value: bigint;
  input: Hex;
}

/** A mined transaction's receipt: its outcome and the logs it emitted. */
export interface ChainReceipt {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  logs: readonly { address: Address; topics: readonly Hex[]; data: Hex }[];
}

/**
 * What one read of the chain says about a transaction hash. `transaction: null`: the node does not know it
 * (never sent, not propagated yet, or dropped); `receipt: null`: not mined yet.
 */
export interface TransactionEvidence {
  transaction: ChainTransaction | null;
  receipt: ChainReceipt | null;
}

/**
 * The chain could not be read: no RPC for it, the RPC failed or timed out, or it answered for another chain
 * or another transaction. Nothing is known: the caller tries again later, and never treats this as "not
 * found".
 */
export class ChainReadError extends Error {
  override readonly name = 'ChainReadError';
}

/** Reads transactions from the chains through the configured RPCs. */
export interface ChainReader {
  /**
   * The transaction with this hash and its receipt, read from `chainId`'s RPC.
   *
   * @throws {ChainReadError} when the chain cannot be read (see {@link ChainReadError}).
   */
  readTransaction(chainId: number, hash: Hex): Promise<TransactionEvidence>;
  /** The USDC contract transfers on `chainId` are checked against, if the chain has one. */
  usdcAddress(chainId: number): Address | undefined;
}

/** How long one JSON-RPC call may take before the read fails (and is tried again later). */
export const RPC_TIMEOUT_MS = 5_000;

/**
 * A {@link ChainReader} over the RPCs of `config` (see `chainRpcUrl`). Each read asks the node, in parallel,
 * for its chain id (so a misconfigured URL serving another chain is noticed rather than believed), the
 * transaction and its receipt; every call times out after `timeoutMs` and is not retried here: the caller
 * keeps the schedule of retries (in the database, not in this process). A transaction whose fields do not
 * match its hash and signature is a failed read, never evidence.
 *
 * @example
 * const reader = createChainReader(config);
 * const { transaction, receipt } = await reader.readTransaction(8453, hash);
 */
export function createChainReader(config: ChainConfig, options: { timeoutMs?: number } = {}): ChainReader {
  const timeout = options.timeoutMs ?? RPC_TIMEOUT_MS;
  const clientFor = chainClients(config, timeout);

  return {
    usdcAddress: (chainId) => chainUsdcAddress(config, chainId),
    async readTransaction(chainId, hash) {
      const client = clientFor(chainId);
      let answers: [number, ChainTransaction | null, ChainReceipt | null];
      try {
        answers = await Promise.all([
          client.getChainId(),
          client
            .getTransaction({ hash })
            .then((transaction) => toTransaction(chainId, transaction))
            .catch((error: unknown) => {
              if (error instanceof TransactionNotFoundError) return null;
              throw error;
            }),
          client
            .getTransactionReceipt({ hash })
            .then((receipt): ChainReceipt => {
              if (receipt.transactionHash.toLowerCase() !== hash.toLowerCase()) {
                throw new ChainReadError(`chain ${chainId} answered with the receipt of another transaction`);
              }
              return {
                status: receipt.status,
                blockNumber: receipt.blockNumber,
                logs: receipt.logs.map(({ address, topics, data }) => ({ address, topics, data })),
              };
            })
            .catch((error: unknown) => {
              if (error instanceof TransactionReceiptNotFoundError) return null;
              throw error;
            }),
        ]);
      } catch (error) {
        if (error instanceof ChainReadError) throw error;
        // Not the error itself as `cause`: viem's messages carry the RPC URL, which may hold an API key, and
        // this error is logged.
        throw new ChainReadError(`reading chain ${chainId} failed: ${shortMessage(error)}`);
      }
      const [actualChainId, transaction, receipt] = answers;
      if (actualChainId !== chainId) {
        throw new ChainReadError(`the RPC of chain ${chainId} serves chain ${actualChainId}`);
      }
      if (transaction !== null && transaction.hash.toLowerCase() !== hash.toLowerCase()) {
        throw new ChainReadError(`chain ${chainId} answered with another transaction`);
      }
      return { transaction, receipt };
    },
  };
}

async function toTransaction(chainId: number, transaction: Transaction): Promise<ChainTransaction> {
  const signed = await checkSignedTransaction(transaction);
  if (signed === 'forged') {
    throw new ChainReadError(
      `the RPC of chain ${chainId} answered with a transaction that does not match its hash and signature`,
    );
  }
  return {
    supported: signed === 'authentic',
    hash: transaction.hash,
    from: getAddress(transaction.from),
    to: transaction.to === null ? null : getAddress(transaction.to),
    value: transaction.value,
    input: transaction.input,
  };
}

/** viem's one-line summary when there is one (its full message lists the request, URL included). */
export function shortMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'shortMessage' in error) {
    return String((error as { shortMessage: unknown }).shortMessage);
  }
  return error instanceof Error ? error.name : String(error);
}

/**
 * A client per chain, built on first use from the configured RPC (`chainRpcUrl`), with `timeoutMs` and no
 * retries. Clients hold no state worth sharing between servers: this is only a cache of objects built from
 * config.
 *
 * @returns a function giving the chain's client; it throws {@link ChainReadError} for a chain without an RPC.
 */
export function chainClients(config: ChainConfig, timeoutMs: number): (chainId: number) => PublicClient {
  const clients = new Map<number, PublicClient>();
  return (chainId) => {
    let client = clients.get(chainId);
    if (client === undefined) {
      const url = chainRpcUrl(config, chainId);
      if (url === undefined) throw new ChainReadError(`no RPC for chain ${chainId}`);
      client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0 }) });
      clients.set(chainId, client);
    }
    return client;
  };
}
