import type { DialError } from '@dial/core';
import { toDialError } from '../api/describeError';
import {
  type OpenedWallet,
  type OpenWalletStage,
  openWallet,
  type WalletToRecover,
} from '../keys/openWallet';

export type OpenWalletState =
  | { status: OpenWalletStage }
  | { status: 'ready'; wallet: OpenedWallet }
  | { status: 'recover'; toRecover: WalletToRecover }
  | { status: 'failed'; error: DialError };

/** One opening of a user's wallet ({@link openWallet}) that a screen can follow, even one that began before it. */
export interface WalletOpening {
  readonly userId: string;
  /** Where the opening stands now. */
  state(): OpenWalletState;
  /** Calls `listener` with each later state; returns the function that stops it. */
  subscribe(listener: (state: OpenWalletState) => void): () => void;
}

/**
 * Starts opening (or creating) the user's wallet now. The app calls it the moment a code check signs someone
 * in, so the wallet request, the Web Lock and the device share's read run while the wallet screen renders,
 * not after; the screen then follows this opening ({@link useOpenWallet}) rather than starting another.
 *
 * The wallet is `ready` as soon as its key is rebuilt: forgetting the older shares goes on under the lock
 * afterwards, and should that fail, the wallet stays open (the next opening forgets them).
 */
export function startWalletOpening(userId: string): WalletOpening {
  let current: OpenWalletState = { status: 'opening' };
  const listeners = new Set<(state: OpenWalletState) => void>();
  const set = (next: OpenWalletState) => {
    current = next;
    for (const listener of listeners) listener(next);
  };
  openWallet(
    userId,
    (stage) => set({ status: stage }),
    (wallet) => set({ status: 'ready', wallet }),
  ).then(
    (result) => {
      if ('needsRecovery' in result) set({ status: 'recover', toRecover: result });
      else if (current.status !== 'ready') set({ status: 'ready', wallet: result });
    },
    (error: unknown) => {
      if (current.status !== 'ready') set({ status: 'failed', error: toDialError(error) });
    },
  );
  return {
    userId,
    state: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
