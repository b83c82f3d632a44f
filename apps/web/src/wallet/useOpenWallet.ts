import type { DialError } from '@dial/core';
import { useCallback, useEffect, useState } from 'react';
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

/**
 * Opens (or creates) the user's wallet when the wallet screen appears; `retry` tries again (also after a
 * recovery or a rotation, to open the new split).
 */
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
      (result) => {
        if (!current) return;
        setState(
          'needsRecovery' in result
            ? { status: 'recover', toRecover: result }
            : { status: 'ready', wallet: result },
        );
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
