import { useCallback, useEffect, useRef, useState } from 'react';
import { type OpenWalletState, startWalletOpening, type WalletOpening } from './walletOpening';

export type { OpenWalletState } from './walletOpening';

/**
 * Opens (or creates) the user's wallet when the wallet screen appears; `retry` tries again (also after a
 * recovery or a rotation, to open the new split). `early` is an opening the app started at sign-in
 * ({@link startWalletOpening}): the first attempt follows it instead of starting another.
 */
export function useOpenWallet(userId: string, early?: WalletOpening) {
  const [state, setState] = useState<OpenWalletState>(() =>
    early?.userId === userId ? early.state() : { status: 'opening' },
  );
  const [attempt, setAttempt] = useState(0);
  /**
   * The opening of the current attempt: one per user and attempt, however often the effect runs (StrictMode
   * runs it twice on mount in development, and two openings would each read the shares and rebuild the key).
   */
  const followed = useRef<{ userId: string; attempt: number; opening: WalletOpening } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a retry; `early` counts for the first attempt only.
  useEffect(() => {
    let last = followed.current;
    if (last?.userId !== userId || last.attempt !== attempt) {
      const opening = attempt === 0 && early?.userId === userId ? early : startWalletOpening(userId);
      last = { userId, attempt, opening };
      followed.current = last;
    }
    setState(last.opening.state());
    return last.opening.subscribe(setState);
  }, [userId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
