import type { WalletEvent } from '../api/types';

type Listener = (event: WalletEvent) => void;

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
export function notifyWalletChange(event: WalletEvent): void {
  for (const listener of [...listeners]) listener(event);
}
