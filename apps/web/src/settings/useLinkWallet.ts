import { useCallback, useRef, useState } from 'react';
import type { ChangeOutcome } from '../account/makeAccountChange';
import type { SignInMethod } from '../api/types';
import { rememberWallet } from '../connect/rememberedWallet';
import type { WalletSignInProgress } from '../connect/useWalletSignIn';
import type { DiscoveredWallet } from '../connect/walletProvider';
import { linkWalletMethod } from './linkWalletMethod';

/**
 * Linking a wallet the person picked (the same steps and status line as signing in with one): remembers
 * which wallet app it is (to name it later) and hands what became of the link (linked, or asked for) to
 * `onLinked`. One at a time.
 */
export function useLinkWallet(userId: string, onLinked: (outcome: ChangeOutcome<SignInMethod>) => void) {
  const [progress, setProgress] = useState<WalletSignInProgress>({ phase: 'idle', error: null });
  const running = useRef(false);

  const signIn = useCallback(
    async (wallet: DiscoveredWallet) => {
      if (running.current) return;
      running.current = true;
      setProgress({ phase: 'connecting', wallet });
      try {
        const outcome = await linkWalletMethod(userId, wallet.provider, (step) =>
          setProgress({ phase: step, wallet }),
        );
        if (outcome.applied) rememberWallet(outcome.value.value, wallet.info);
        setProgress({ phase: 'idle', error: null });
        onLinked(outcome);
      } catch (error) {
        setProgress({ phase: 'idle', error });
      } finally {
        running.current = false;
      }
    },
    [userId, onLinked],
  );

  return { progress, signIn, busy: progress.phase !== 'idle' };
}
