import { type Chain, createPublicClient, http } from 'viem';

/** A client for `chain` on its default RPC URL (`chain.rpcUrls.default.http[0]`). */
export function createChainClient(chain: Chain) {
  return createPublicClient({
    chain,
    transport: http(undefined, { retryCount: 1, timeout: 15_000 }),
    pollingInterval: 1_000,
  });
}
