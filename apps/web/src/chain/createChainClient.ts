import { type Chain, createClient, http, type PublicActions, type Transport } from 'viem';
import {
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  getTransactionCount,
  readContract,
  waitForTransactionReceipt,
} from 'viem/actions';

/** The reads the app makes on a chain. */
type ChainReads = Pick<
  PublicActions<Transport, Chain>,
  | 'estimateFeesPerGas'
  | 'estimateGas'
  | 'getBalance'
  | 'getTransactionCount'
  | 'readContract'
  | 'waitForTransactionReceipt'
>;

/**
 * A client for `chain` on its default RPC URL (`chain.rpcUrls.default.http[0]`), with only the actions the
 * app uses. Not `createPublicClient`: its decorator imports every public action (multicall, ENS, event
 * watchers, call simulation…), about a fifth of the wallet screen's JavaScript.
 */
export function createChainClient(chain: Chain) {
  return createClient({
    chain,
    transport: http(undefined, { retryCount: 1, timeout: 15_000 }),
    pollingInterval: 1_000,
  }).extend(
    (client): ChainReads =>
      ({
        estimateFeesPerGas: (args) => estimateFeesPerGas(client, args),
        estimateGas: (args) => estimateGas(client, args),
        getBalance: (args) => getBalance(client, args),
        getTransactionCount: (args) => getTransactionCount(client, args),
        readContract: (args) => readContract(client, args),
        waitForTransactionReceipt: (args) => waitForTransactionReceipt(client, args),
      }) as ChainReads,
  );
}

/** A chain client as {@link createChainClient} makes it. */
export type ChainClient = ReturnType<typeof createChainClient>;
