import {
  type Address,
  getAddress,
  type Hex,
  type PublicClient,
  parseAbiItem,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';

/** The ERC-20 `Transfer` event, as USDC emits it. */
export const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** Money the chain shows moving to an address: a USDC `Transfer` log, or a transaction's own value. */
export interface ChainMoney {
  asset: 'native' | 'usdc';
  /** EIP-55. */
  from: Address;
  /** EIP-55. */
  to: Address;
  value: bigint;
  /** Lower-case. */
  txHash: Hex;
  /** The log's index in its block; `null` for a transaction's own value. */
  logIndex: number | null;
  blockNumber: bigint;
  /** A transaction's value moves only when it succeeded; a log exists only when it did. */
  status: 'confirmed' | 'failed';
}

/** The USDC `Transfer` logs of blocks `from`…`to` (one `eth_getLogs`), each with a value. */
export async function readUsdcTransfers(
  client: PublicClient,
  usdc: Address,
  from: bigint,
  to: bigint,
): Promise<ChainMoney[]> {
  const logs = await client.getLogs({ address: usdc, event: TRANSFER_EVENT, fromBlock: from, toBlock: to });
  const money: ChainMoney[] = [];
  for (const log of logs) {
    const { from: sender, to: recipient, value } = log.args;
    if (
      log.removed ||
      sender === undefined ||
      recipient === undefined ||
      value === undefined ||
      value === 0n
    ) {
      continue;
    }
    if (log.transactionHash === null || log.logIndex === null || log.blockNumber === null) continue;
    money.push({
      asset: 'usdc',
      from: getAddress(sender),
      to: getAddress(recipient),
      value,
      txHash: log.transactionHash.toLowerCase() as Hex,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      status: 'confirmed',
    });
  }
  return money;
}

/** How many blocks are read at once in `blocks` mode. */
const BLOCK_READS_IN_PARALLEL = 4;

/**
 * The transactions of blocks `from`…`to` that carry native value (one `eth_getBlockByNumber` per block), as
 * `confirmed` for now: {@link readOutcome} reads the receipt of the few that matter.
 */
export async function readNativeTransfers(
  client: PublicClient,
  from: bigint,
  to: bigint,
): Promise<ChainMoney[]> {
  const numbers: bigint[] = [];
  for (let number = from; number <= to; number += 1n) numbers.push(number);
  const money: ChainMoney[] = [];
  for (let start = 0; start < numbers.length; start += BLOCK_READS_IN_PARALLEL) {
    const blocks = await Promise.all(
      numbers
        .slice(start, start + BLOCK_READS_IN_PARALLEL)
        .map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })),
    );
    for (const block of blocks) {
      for (const transaction of block.transactions) {
        if (transaction.to === null || transaction.value === 0n) continue;
        money.push({
          asset: 'native',
          from: getAddress(transaction.from),
          to: getAddress(transaction.to),
          value: transaction.value,
          txHash: transaction.hash.toLowerCase() as Hex,
          logIndex: null,
          blockNumber: block.number ?? 0n,
          status: 'confirmed',
        });
      }
    }
  }
  return money;
}

/** A transaction's outcome from its receipt; `null` while it is not mined. */
export async function readOutcome(
  client: PublicClient,
  hash: Hex,
): Promise<{ status: 'confirmed' | 'failed'; blockNumber: bigint } | null> {
  try {
    const receipt = await client.getTransactionReceipt({ hash });
    return {
      status: receipt.status === 'success' ? 'confirmed' : 'failed',
      blockNumber: receipt.blockNumber,
    };
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/**
 * What one transaction moved to `wallet`: its own value, and the USDC `Transfer` logs to it, with the outcome
 * from its receipt. `null` while it is not mined (or the node does not know it). Used for money the server
 * sent itself (the faucet, the sandbox on-ramp), to record it with the same key the watcher would give it.
 */
export async function readTransactionMoney(
  client: PublicClient,
  hash: Hex,
  wallet: Address,
  usdc: Address | undefined,
): Promise<ChainMoney[] | null> {
  let transaction: Awaited<ReturnType<PublicClient['getTransaction']>>;
  let receipt: Awaited<ReturnType<PublicClient['getTransactionReceipt']>>;
  try {
    [transaction, receipt] = await Promise.all([
      client.getTransaction({ hash }),
      client.getTransactionReceipt({ hash }),
    ]);
  } catch (error) {
    if (error instanceof TransactionNotFoundError || error instanceof TransactionReceiptNotFoundError) {
      return null;
    }
    throw error;
  }
  const status = receipt.status === 'success' ? 'confirmed' : 'failed';
  const money: ChainMoney[] = [];
  const to = wallet.toLowerCase();
  if (transaction.to?.toLowerCase() === to && transaction.value > 0n) {
    money.push({
      asset: 'native',
      from: getAddress(transaction.from),
      to: getAddress(wallet),
      value: transaction.value,
      txHash: hash.toLowerCase() as Hex,
      logIndex: null,
      blockNumber: receipt.blockNumber,
      status,
    });
  }
  for (const log of receipt.logs) {
    if (usdc === undefined || log.address.toLowerCase() !== usdc.toLowerCase()) continue;
    const [topic, fromTopic, toTopic] = log.topics;
    if (topic !== TRANSFER_TOPIC || fromTopic === undefined || toTopic === undefined) continue;
    if (`0x${toTopic.slice(26)}`.toLowerCase() !== to) continue;
    money.push({
      asset: 'usdc',
      from: getAddress(`0x${fromTopic.slice(26)}`),
      to: getAddress(wallet),
      value: BigInt(log.data),
      txHash: hash.toLowerCase() as Hex,
      logIndex: log.logIndex,
      blockNumber: receipt.blockNumber,
      status,
    });
  }
  return money;
}

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
