import { useEffect, useState } from 'react';
import { onWalletChange } from './walletChanges';

/**
 * Something about the account the page keeps up to date: read at start and again whenever the live stream
 * says the account changed (or may have: `reload`), the older read dropped. A read that fails leaves the last
 * value (`initial` until one succeeds) and is tried again at the next change: the page goes on.
 *
 * @param read - reads it from the server; the same function for the component's life.
 */
export function useAccountReading<T>(read: (signal: AbortSignal) => Promise<T>, initial: T): T {
  const [value, setValue] = useState(initial);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is fixed for the component's life.
  useEffect(() => {
    let controller = new AbortController();
    const load = () => {
      controller.abort();
      controller = new AbortController();
      const { signal } = controller;
      read(signal).then(
        (answer) => {
          if (!signal.aborted) setValue(answer);
        },
        () => {
          // Read again at the next change of the account.
        },
      );
    };
    load();
    const stop = onWalletChange((change) => {
      if (change.kind === 'account' || change.kind === 'reload') load();
    });
    return () => {
      stop();
      controller.abort();
    };
  }, []);

  return value;
}
