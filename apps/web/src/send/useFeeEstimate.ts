import { DialError } from '@dial/core';
import { useCallback, useEffect, useState } from 'react';
import type { ChainClient } from '../chain/createChainClient';
import { estimateNetworkFee, type FeeEstimate } from './networkFee';
import type { TransferCall } from './transferCall';

export type FeeState =
  | { status: 'loading' }
  | { status: 'ready'; estimate: FeeEstimate; key: string }
  | { status: 'failed'; error: DialError };

const DEBOUNCE_MS = 300;

/** A stable key for a call, to tell whether an estimate was made for the inputs now on screen. */
export function callKey(call: TransferCall): string {
  return `${call.to.toLowerCase()}:${call.value}:${call.data ?? ''}`;
}

/**
 * The network fee of `call`, estimated again (after a short pause) whenever the call changes. `retry`
 * estimates again for the same call.
 */
export function useFeeEstimate(client: ChainClient, from: `0x${string}`, call: TransferCall | null) {
  const [state, setState] = useState<FeeState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const key = call === null ? null : callKey(call);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `call`; `attempt` forces a retry.
  useEffect(() => {
    if (call === null || key === null) return;
    let current = true;
    setState({ status: 'loading' });
    const timer = setTimeout(() => {
      estimateNetworkFee(client, from, call).then(
        (estimate) => {
          if (current) setState({ status: 'ready', estimate, key });
        },
        (error: unknown) => {
          if (current)
            setState({ status: 'failed', error: new DialError('chain_unavailable', { cause: error }) });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, from, key, attempt]);

  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  return { state, key, retry };
}
