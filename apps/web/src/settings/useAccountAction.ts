import { isDialError } from '@dial/core';
import { useCallback, useRef, useState } from 'react';

/**
 * Runs the settings screen's actions on one part of the account, one at a time: which one is under way
 * (by a key, e.g. the method's id), the last one's error, and after each (done or refused) a reload of
 * what is shown, since the server may have changed it either way. A gone session calls `onSessionEnded`.
 */
export function useAccountAction(reload: () => void, onSessionEnded: () => void) {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const busy = useRef(false);

  /** Runs `action` (unless another is under way) and says whether it was done. */
  const run = useCallback(
    async (key: string, action: () => Promise<void>): Promise<boolean> => {
      if (busy.current) return false;
      busy.current = true;
      setPending(key);
      setError(null);
      try {
        await action();
        return true;
      } catch (caught) {
        if (isDialError(caught, 'unauthorized')) onSessionEnded();
        else setError(caught);
        return false;
      } finally {
        busy.current = false;
        setPending(null);
        reload();
      }
    },
    [reload, onSessionEnded],
  );

  const clearError = useCallback(() => setError(null), []);
  return { pending, error, run, clearError };
}
