import { DialError } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { onBalanceCheck } from '../live/walletChanges';
import { useRetryWhileFailed } from './useRetryWhileFailed';

export type BalanceState =
  | { status: 'loading' }
  | { status: 'ready'; value: bigint }
  | { status: 'failed'; error: DialError };

/** A USDC balance: as a native one, or `unavailable` on a chain without USDC (Zora). */
export type UsdcBalanceState = BalanceState | { status: 'unavailable' };

/** A balance shown, and a way to read it again (true when the balance read is the one shown). */
export interface BalanceReading<S> {
  state: S;
  refresh: () => Promise<boolean>;
}

/**
 * A balance read from the chain by the browser, the one way the wallet's balances are kept: `read` (a new
 * function whenever what it reads changes, e.g. another chain) loads it again, and answers for a read no
 * longer current are ignored; a failed read is tried again by itself, with growing pauses, keeping the
 * failure shown until a read succeeds; read again, quietly, whenever the live wallet asks (`onBalanceCheck`).
 * Without `read` (no such balance on this chain) it is `unavailable`.
 */
export function useBalanceReading(read: () => Promise<bigint>): BalanceReading<BalanceState>;
export function useBalanceReading(
  read: (() => Promise<bigint>) | undefined,
): BalanceReading<UsdcBalanceState>;
export function useBalanceReading(
  read: (() => Promise<bigint>) | undefined,
): BalanceReading<UsdcBalanceState> {
  const [state, setState] = useState<UsdcBalanceState>(
    read === undefined ? { status: 'unavailable' } : { status: 'loading' },
  );
  const latest = useRef(0);
  const shown = useRef(state.status);
  shown.current = state.status;

  /** Reads again; `quiet` (an automatic retry) keeps what is shown until the answer. */
  const readAgain = useCallback(
    async (quiet: boolean) => {
      const request = ++latest.current;
      if (read === undefined) {
        setState({ status: 'unavailable' });
        return false;
      }
      if (!quiet) setState({ status: 'loading' });
      try {
        const value = await read();
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
    [read],
  );
  const refresh = useCallback(() => readAgain(false), [readAgain]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useRetryWhileFailed(state.status === 'failed' ? state.error : null, () => void readAgain(true));
  // The live wallet asks (money arrived, the page is back, every few seconds): quietly, over a value shown
  // only, so that a first read or a retry in progress is never superseded.
  useEffect(
    () =>
      onBalanceCheck(() => {
        if (shown.current === 'ready') void readAgain(true);
      }),
    [readAgain],
  );

  return { state, refresh };
}
