import { DialError } from '@dial/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Chain } from 'viem';
import { onBalanceCheck } from '../live/walletChanges';
import { createChainClient } from './createChainClient';

export type BalanceState =
  | { status: 'loading' }
  | { status: 'ready'; value: bigint }
  | { status: 'failed'; error: DialError };

/**
 * The native balance of `address` on `chain`, read from the chain's RPC by the browser (viem). Switching
 * chains loads again; answers for a chain no longer shown are ignored. Read again, quietly (the value shown
 * stays until the new one arrives, and a failure keeps it), whenever the live wallet asks (`onBalanceCheck`).
 */
export function useBalance(chain: Chain, address: `0x${string}`) {
  const client = useMemo(() => createChainClient(chain), [chain]);
  const [state, setState] = useState<BalanceState>({ status: 'loading' });
  const latest = useRef(0);
  const shown = useRef(state);
  shown.current = state;

  const read = useCallback(
    async (quiet: boolean) => {
      // Quietly only over a value shown: a first read or a retry in progress must not be superseded.
      if (quiet && shown.current.status !== 'ready') return;
      const request = ++latest.current;
      if (!quiet) setState({ status: 'loading' });
      try {
        const value = await client.getBalance({ address });
        if (request === latest.current) setState((current) => keepSame(current, value));
      } catch (error) {
        if (request !== latest.current || quiet) return;
        // Any RPC failure (unreachable, refused, a bad answer) means the network is unavailable to us.
        setState({ status: 'failed', error: new DialError('chain_unavailable', { cause: error }) });
      }
    },
    [client, address],
  );
  const refresh = useCallback(() => read(false), [read]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => onBalanceCheck(() => void read(true)), [read]);

  return { state, refresh, client };
}

/** The ready state for `value`: the state shown when it already says so (no render, nothing announced). */
export function keepSame<S extends { status: string }>(current: S, value: bigint): S | BalanceState {
  return current.status === 'ready' && (current as { value?: bigint }).value === value
    ? current
    : { status: 'ready', value };
}
