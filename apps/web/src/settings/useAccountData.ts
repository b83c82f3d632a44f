import { isDialError } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';

export type AccountData<T> =
  | { status: 'loading' }
  | { status: 'ready'; value: T }
  | { status: 'failed'; error: unknown };

/**
 * Loads part of the account from the server (its sign-in methods, its sessions) and reloads it on demand,
 * keeping what is shown until the new answer comes. When the server answers that the session is gone
 * (ended from another browser), `onSessionEnded` is called.
 */
export function useAccountData<T>(load: (signal: AbortSignal) => Promise<T>, onSessionEnded: () => void) {
  const [data, setData] = useState<AccountData<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a reload.
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setData({ status: 'ready', value });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isDialError(error, 'unauthorized')) ended.current();
        else setData({ status: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [load, attempt]);

  /** Loads again; a failed load shows "loading" meanwhile, a shown list stays until the answer. */
  const reload = useCallback(() => {
    setData((current) => (current.status === 'failed' ? { status: 'loading' } : current));
    setAttempt((n) => n + 1);
  }, []);

  /** Shows a change the server answered with (before the reload that follows each action). */
  const patch = useCallback((change: (value: T) => T) => {
    setData((current) =>
      current.status === 'ready' ? { status: 'ready', value: change(current.value) } : current,
    );
  }, []);

  return { data, reload, patch };
}
