import { useCallback, useEffect, useState } from 'react';
import { callApi } from '../api/client';
import type { FeeOptions } from './feePayment';
import type { WalletSigner } from './sendTransfer';

/** The fee options of a chain: still asked for, or the server's answer (null: none, the wallet pays). */
export type FeeOptionsState = { status: 'loading' } | { status: 'ready'; options: FeeOptions | null };

/**
 * `GET /api/wallet/fees` for `chainId`: whether the operator pays this account's fee there now. Asked for the
 * embedded wallet only (an external wallet pays its own fee); a failed request is no sponsorship, so a send
 * still works as a plain transaction. `refresh` asks again (after the paymaster refused: its limits may
 * have been reached since), keeping the last answer until the new one.
 */
export function useFeeOptions(
  signer: WalletSigner,
  chainId: number,
): { state: FeeOptionsState; refresh(): void } {
  const [state, setState] = useState<{ chainId: number; options: FeeOptions | null } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const refresh = useCallback(() => setAttempt((value) => value + 1), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks again.
  useEffect(() => {
    if (signer !== 'embedded') return;
    const abort = new AbortController();
    callApi('walletFees', { query: { chainId }, signal: abort.signal }).then(
      (options) => setState({ chainId, options }),
      () => {
        if (!abort.signal.aborted) setState({ chainId, options: null });
      },
    );
    return () => abort.abort();
  }, [signer, chainId, attempt]);
  if (signer !== 'embedded') return { state: { status: 'ready', options: null }, refresh };
  return {
    state:
      state !== null && state.chainId === chainId
        ? { status: 'ready', options: state.options }
        : { status: 'loading' },
    refresh,
  };
}
