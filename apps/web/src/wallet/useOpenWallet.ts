import type { DialError } from '@dial/core';
import { useCallback, useEffect, useState } from 'react';
import { toDialError } from '../api/describeError';
import { type OpenedWallet, type OpenWalletStage, openWallet } from './openWallet';

export type OpenWalletState =
  | { status: OpenWalletStage }
  | { status: 'ready'; wallet: OpenedWallet }
  | { status: 'failed'; error: DialError };

/** Opens (or creates) the user's wallet when the wallet screen appears; `retry` tries again. */
export function useOpenWallet(userId: string) {
  const [state, setState] = useState<OpenWalletState>({ status: 'opening' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a retry.
  useEffect(() => {
    let current = true;
    setState({ status: 'opening' });
    openWallet(userId, (stage) => {
      if (current) setState({ status: stage });
    }).then(
      (wallet) => {
        if (current) setState({ status: 'ready', wallet });
      },
      (error: unknown) => {
        if (current) setState({ status: 'failed', error: toDialError(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [userId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
