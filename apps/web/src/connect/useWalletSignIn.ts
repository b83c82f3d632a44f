import type { SiweNonce } from '@dial/api';
import { useCallback, useRef, useState } from 'react';
import type { User } from '../api/types';
import { keepConnectedWallet } from './connectedWallets';
import { rememberWallet } from './rememberedWallet';
import type { WalletSignInStep } from './signInWithWallet';
import type { DiscoveredWallet } from './walletProvider';

export type WalletSignInProgress =
  | { phase: 'idle'; error: unknown }
  | { phase: WalletSignInStep; wallet: DiscoveredWallet };

/**
 * An account and chain the wallet already connected (WalletConnect's session gives them). Such a wallet is
 * kept for sending while the page lives: no announcement finds it again.
 */
export interface ConnectedAccount {
  address: string;
  chainId?: number;
  /** A nonce fetched before connecting (its chain ids were proposed to the wallet). */
  nonce?: SiweNonce;
}

/**
 * Signing in with a wallet the person picked: loads the Sign-In with Ethereum code (its own chunk) on the
 * first pick, runs it, remembers which wallet app signed in (to find and name it later) and hands the user
 * to `onSignedIn`. One at a time: a pick while one runs is ignored.
 */
export function useWalletSignIn(onSignedIn: (user: User) => void) {
  const [progress, setProgress] = useState<WalletSignInProgress>({ phase: 'idle', error: null });
  const running = useRef(false);

  const signIn = useCallback(
    async (wallet: DiscoveredWallet, known?: ConnectedAccount) => {
      if (running.current) return;
      running.current = true;
      setProgress({ phase: 'connecting', wallet });
      try {
        const { signInWithWallet } = await import('./signInWithWallet');
        const { verified, address } = await signInWithWallet(
          wallet.provider,
          (step) => setProgress({ phase: step, wallet }),
          known,
        );
        rememberWallet(address, wallet.info);
        if (known !== undefined) keepConnectedWallet(address, wallet);
        onSignedIn(verified.user);
      } catch (error) {
        setProgress({ phase: 'idle', error });
      } finally {
        running.current = false;
      }
    },
    [onSignedIn],
  );

  return { progress, signIn, busy: progress.phase !== 'idle' };
}

export type WalletSignIn = ReturnType<typeof useWalletSignIn>;
