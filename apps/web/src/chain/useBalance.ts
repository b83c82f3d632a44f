import { DialError } from '@dial/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Chain } from 'viem';
import { createChainClient } from './createChainClient';
import { useRetryWhileFailed } from './useRetryWhileFailed';

export type BalanceState =
  | { status: 'loading' }
  | { status: 'ready'; value: bigint }
  | { status: 'failed'; error: DialError };

/**
 * The native balance of `address` on `chain`, read from the chain's RPC by the browser (viem). Switching
 * chains loads again; answers for a chain no longer shown are ignored. A failed read is tried again by
 * itself, with growing pauses, keeping the failure shown until a read succeeds.
 */
export function useBalance(chain: Chain, address: `0x${string}`) {
  const client = useMemo(() => createChainClient(chain), [chain]);
  const [state, setState] = useState<BalanceState>({ status: 'loading' });
  const latest = useRef(0);

  /**
   * Reads again; `quiet` (an automatic retry) keeps what is shown until the answer. True when the balance
   * read is the one shown.
   */
  const read = useCallback(
    async (quiet: boolean) => {
      const request = ++latest.current;
      if (!quiet) setState({ status: 'loading' });
      try {
        const value = await client.getBalance({ address });
        if (request !== latest.current) return false;
        setState({ status: 'ready', value });
        return true;
      } catch (error) {
        if (request !== latest.current) return false;
        // Any RPC failure (unreachable, refused, a bad answer) means the network is unavailable to us.
        setState({ status: 'failed', error: new DialError('chain_unavailable', { cause: error }) });
        return false;
      }
    },
    [client, address],
  );
  const refresh = useCallback(() => read(false), [read]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useRetryWhileFailed(state.status === 'failed' ? state.error : null, () => void read(true));

  return { state, refresh, client };
}
