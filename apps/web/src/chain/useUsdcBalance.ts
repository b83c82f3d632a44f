import { DialError } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { erc20Abi } from 'viem';
import type { ChainClient } from './createChainClient';
import type { BalanceState } from './useBalance';
import { useRetryWhileFailed } from './useRetryWhileFailed';

/** A USDC balance: as a native one, or `unavailable` on a chain without USDC (Zora). */
export type UsdcBalanceState = BalanceState | { status: 'unavailable' };

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
 * The USDC balance of `address`, read by the browser with the same client as the native balance. `usdc` is
 * the chain's USDC contract, undefined on a chain without one. Answers for a chain no longer shown are
 * ignored; a failed read is tried again by itself, as the native balance's.
 */
export function useUsdcBalance(client: ChainClient, usdc: `0x${string}` | undefined, address: `0x${string}`) {
  const [state, setState] = useState<UsdcBalanceState>(
    usdc === undefined ? { status: 'unavailable' } : { status: 'loading' },
  );
  const latest = useRef(0);

  /**
   * Reads again; `quiet` (an automatic retry) keeps what is shown until the answer. True when the balance
   * read is the one shown.
   */
  const read = useCallback(
    async (quiet: boolean) => {
      const request = ++latest.current;
      if (usdc === undefined) {
        setState({ status: 'unavailable' });
        return false;
      }
      if (!quiet) setState({ status: 'loading' });
      try {
        const value = await readUsdcBalance(client, usdc, address);
        if (request !== latest.current) return false;
        setState({ status: 'ready', value });
        return true;
      } catch (error) {
        if (request !== latest.current) return false;
        setState({ status: 'failed', error: new DialError('chain_unavailable', { cause: error }) });
        return false;
      }
    },
    [client, usdc, address],
  );
  const refresh = useCallback(() => read(false), [read]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useRetryWhileFailed(state.status === 'failed' ? state.error : null, () => void read(true));

  return { state, refresh };
}
