import { useEffect } from 'react';
import type { User } from '../api/types';
import type { WalletOpening } from './walletOpening';

type WalletScreenModule = typeof import('./WalletScreen');

let loading: Promise<WalletScreenModule> | null = null;
let loaded: WalletScreenModule | null = null;

/**
 * The wallet screen is its own chunk: it brings viem and the key-share code, which the sign-in screen
 * must not wait for. Calling this early (while the code is being typed, or at start when this browser was
 * signed in last time) fetches the chunk ahead of time; every call shares one download, and a failed one is
 * tried again on the next call.
 */
export function loadWalletScreen(): Promise<WalletScreenModule> {
  loading ??= Promise.all([import('./WalletScreen'), import('../keys/warmUpKeyMath')]).then(
    ([module, keyMath]) => {
      loaded = module;
      // Opening the wallet checks the rebuilt key's address: the curve's tables are made while idle.
      whenIdle(keyMath.warmUpKeyMath);
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => task(), { timeout: 2000 });
  else setTimeout(task, 0);
}

/**
 * The wallet screen's component once its chunk has loaded, else null: rendered directly, it opens without
 * suspending (a lazy component suspends on its first render even when its chunk is already here, and the
 * placeholder shows until it renders again; React even held it for at least 300 ms).
 */
export function loadedWalletScreen(): WalletScreenModule['default'] | null {
  return loaded?.default ?? null;
}

/**
 * Starts opening the embedded wallet of someone who just signed in, when the wallet screen's code is here
 * already (it was preloaded while the code was typed): the wallet request and the device share's read then
 * run while the screen renders. `undefined` when the code is not here yet (the screen opens the wallet
 * itself) or the account's wallet is an external one (nothing to open).
 */
export function openWalletEarly(user: User): WalletOpening | undefined {
  if (loaded === null || user.wallet?.kind === 'external') return undefined;
  return loaded.startWalletOpening(user.id);
}

/** Set while this browser's last known state was signed in: its next visit loads the wallet's code at once. */
const SIGNED_IN_KEY = 'dial.signedIn';

/**
 * At start (main.tsx): when this browser was signed in at its last visit, starts loading the wallet screen's
 * code now, beside GET /api/me, rather than after it answers.
 */
export function preloadWalletScreenIfSignedIn(storage?: Storage): void {
  try {
    if ((storage ?? localStorage).getItem(SIGNED_IN_KEY) === '1') loadWalletScreen().catch(() => undefined);
  } catch {
    // Storage unavailable (private mode, blocked): the code loads when the wallet opens.
  }
}

/** Keeps {@link preloadWalletScreenIfSignedIn}'s hint in step with the session the app shows. */
export function useSignedInHint(status: 'loading' | 'failed' | 'signed-in' | 'signed-out'): void {
  useEffect(() => {
    if (status === 'signed-in' || status === 'signed-out') rememberSignedIn(status === 'signed-in');
  }, [status]);
}

/** Records whether this browser is signed in, for the next visit's preload. */
export function rememberSignedIn(signedIn: boolean, storage?: Storage): void {
  try {
    const store = storage ?? localStorage;
    if (signedIn) store.setItem(SIGNED_IN_KEY, '1');
    else store.removeItem(SIGNED_IN_KEY);
  } catch {
    // Storage unavailable: only the preload is lost.
  }
}
