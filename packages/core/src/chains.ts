import { type Chain, defineChain } from 'viem';
import { arbitrum, base, baseSepolia, polygon, zora } from 'viem/chains';
import { DialError } from './errors.js';

/**
 * The networks Dial supports, in the order a network picker lists them: Polygon (137), Arbitrum One (42161),
 * Base (8453), Base Sepolia (84532) and Zora (7777777). These are viem's own chain objects, not copies, so
 * their RPC URLs, explorers and formatters stay those viem maintains.
 *
 * @example
 * ```ts
 * SUPPORTED_CHAINS.map((chain) => chain.id); // [137, 42161, 8453, 84532, 7777777]
 * ```
 */
export const SUPPORTED_CHAINS: readonly Chain[] = Object.freeze([polygon, arbitrum, base, baseSepolia, zora]);

/** The chain id of a local development chain (Hardhat, Anvil and EDR use it by default). */
export const LOCAL_CHAIN_ID = 31337;

/**
 * Describes a local development chain (id 31337) reachable at `rpcUrl`: named `Local`, paying fees in Ether
 * (ETH, 18 decimals), a testnet without a block explorer.
 *
 * @param rpcUrl - The chain's JSON-RPC endpoint, an `http:` or `https:` URL, e.g. `'http://127.0.0.1:8545'`.
 * @returns A viem chain.
 * @throws {DialError} `invalid_data` when `rpcUrl` is not an `http:` or `https:` URL.
 *
 * @example
 * ```ts
 * const local = createLocalChain('http://127.0.0.1:8545');
 * local.rpcUrls.default.http; // ['http://127.0.0.1:8545']
 * ```
 */
export function createLocalChain(rpcUrl: string): Chain {
  // Checked here so a mistyped setting fails at start-up rather than at the first request.
  if (!isHttpUrl(rpcUrl)) {
    throw new DialError('invalid_data', { details: `local RPC URL is not an http(s) URL: ${rpcUrl}` });
  }
  return defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    // Every transaction is mined at once; a user operation within the local bundler's 10–50 ms interval.
    blockTime: 50,
    testnet: true,
  });
}

function isHttpUrl(text: string): boolean {
  // Not URL.canParse: Safari before 17 lacks it.
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Options for {@link getChains}. */
export interface GetChainsOptions {
  /** The RPC URL of a local development chain to offer after the supported ones; none when absent or null. */
  localRpcUrl?: string | null;
  /**
   * RPC URLs to use instead of viem's defaults, by chain id, e.g. `{ 137: 'https://polygon.example.com/v1/KEY' }`.
   * Each must be an `http:` or `https:` URL; ids that are not supported chains are ignored (the local chain
   * takes `localRpcUrl`). A chain without an entry keeps viem's default RPC URLs.
   */
  rpcUrls?: Readonly<Record<number, string>> | null;
}

/**
 * The chains a Dial server offers: {@link SUPPORTED_CHAINS}, each on its RPC URL from `rpcUrls` when it has
 * one, then a local chain when a local RPC URL is set.
 *
 * @param options - `localRpcUrl`: the local chain's RPC URL, if any; `rpcUrls`: RPC URLs by chain id.
 * @returns The chains, the local one last. Chains without an RPC URL override are viem's own objects; one
 * with an override is a copy whose `rpcUrls.default.http` is `[thatUrl]`.
 * @throws {DialError} `invalid_data` when `localRpcUrl`, or an RPC URL of a supported chain, is not an
 * `http:` or `https:` URL.
 *
 * @example
 * ```ts
 * getChains().length; // 5
 * getChains({ localRpcUrl: 'http://127.0.0.1:8545' }).at(-1)?.id; // 31337
 * findChain(getChains({ rpcUrls: { 8453: 'https://base.example.com' } }), 8453)?.rpcUrls.default.http;
 * // ['https://base.example.com']
 * ```
 */
export function getChains(options: GetChainsOptions = {}): readonly Chain[] {
  const { localRpcUrl, rpcUrls } = options;
  let chains = SUPPORTED_CHAINS;
  if (rpcUrls !== undefined && rpcUrls !== null) {
    const overridden = SUPPORTED_CHAINS.map((chain) => {
      const rpcUrl = rpcUrls[chain.id];
      return rpcUrl === undefined ? chain : withRpcUrl(chain, rpcUrl);
    });
    if (overridden.some((chain, index) => chain !== SUPPORTED_CHAINS[index])) chains = overridden;
  }
  if (localRpcUrl !== undefined && localRpcUrl !== null) chains = [...chains, createLocalChain(localRpcUrl)];
  return chains === SUPPORTED_CHAINS ? SUPPORTED_CHAINS : Object.freeze(chains);
}

/** A copy of `chain` whose default RPC URL is `rpcUrl`, every other field (explorers, formatters) kept. */
function withRpcUrl(chain: Chain, rpcUrl: string): Chain {
  if (!isHttpUrl(rpcUrl)) {
    throw new DialError('invalid_data', {
      details: `RPC URL of chain ${chain.id} is not an http(s) URL: ${rpcUrl}`,
    });
  }
  return defineChain({ ...chain, rpcUrls: { ...chain.rpcUrls, default: { http: [rpcUrl] } } });
}

/**
 * Finds a chain by id.
 *
 * @param chains - The chains to look in, e.g. the result of {@link getChains}.
 * @param id - The chain id.
 * @returns The chain, or `undefined` when none has that id.
 *
 * @example
 * ```ts
 * findChain(SUPPORTED_CHAINS, 8453)?.name; // 'Base'
 * ```
 */
export function findChain(chains: readonly Chain[], id: number): Chain | undefined {
  return chains.find((chain) => chain.id === id);
}

/**
 * The URL of a chain's default block explorer.
 *
 * @param chain - The chain.
 * @returns The explorer's URL, e.g. `'https://basescan.org'`, or `undefined` when the chain has none (a local
 * chain).
 *
 * @example
 * ```ts
 * explorerUrl(base); // 'https://basescan.org'
 * ```
 */
export function explorerUrl(chain: Chain): string | undefined {
  return chain.blockExplorers?.default.url;
}
