import { useMemo } from 'react';
import { erc20Abi } from 'viem';
import type { ChainClient } from './createChainClient';
import { useBalanceReading } from './useBalanceReading';

export type { UsdcBalanceState } from './useBalanceReading';

/**
 * Reads `owner`'s balance of the ERC-20 at `usdc` (`balanceOf`, an `eth_call`), in 6-decimal units, at the
 * latest block, or with `blockTag: 'pending'` counting the transactions still waiting to be mined.
 */
export function readUsdcBalance(
  client: Pick<ChainClient, 'readContract'>,
  usdc: `0x${string}`,
  owner: `0x${string}`,
  blockTag: 'latest' | 'pending' = 'latest',
): Promise<bigint> {
  return client.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
    blockTag,
  });
}

/**
 * The USDC balance of `address`, read by the browser with the same client as the native balance and kept as
 * every balance is (`useBalanceReading`). `usdc` is the chain's USDC contract, undefined on a chain without
 * one (then `unavailable`).
 */
export function useUsdcBalance(client: ChainClient, usdc: `0x${string}` | undefined, address: `0x${string}`) {
  const read = useMemo(
    () => (usdc === undefined ? undefined : () => readUsdcBalance(client, usdc, address)),
    [client, usdc, address],
  );
  return useBalanceReading(read);
}
