import { useCallback, useEffect, useState } from 'react';
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a retry; `early` counts for the first attempt only.
  useEffect(() => {
    const opening = attempt === 0 && early?.userId === userId ? early : startWalletOpening(userId);
    setState(opening.state());
    return opening.subscribe(setState);
  }, [userId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
