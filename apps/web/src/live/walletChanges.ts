import type { WalletEvent } from '../api/types';

/**
 * A change in the wallet: an event of the live stream, or `reload` when events may have been missed (the
 * page was hidden, or the stream could not resume): reload what is shown.
 */
export type WalletChange = WalletEvent | { kind: 'reload' };

type Listener = (event: WalletChange) => void;

const listeners = new Set<Listener>();

/**
 * Listens for changes in the wallet (the live stream's events, or a change this browser made itself).
 *
 * @returns A function that stops listening.
 */
export function onWalletChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells every listener about a change in the wallet. */
export function notifyWalletChange(event: WalletChange): void {
  for (const listener of [...listeners]) listener(event);
}

const balanceListeners = new Set<() => void>();

/**
 * Listens for moments to read the balances again: money arrived or left (an `activity` change or a
 * `reload`), the page came back into view or got the focus, and every few seconds while it is visible (money
 * from outside Dial shows up on the chain before anything tells the server).
 *
 * @returns A function that stops listening.
 */
export function onBalanceCheck(listener: () => void): () => void {
  balanceListeners.add(listener);
  return () => {
    balanceListeners.delete(listener);
  };
}

/** Asks every balance shown to read the chain again, quietly (keeping the value shown meanwhile). */
export function checkBalances(): void {
  for (const listener of [...balanceListeners]) listener();
}
