import { isDialError } from '@dial/core';
import { useCallback, useState } from 'react';
import { commitRotation, type PendingRotation } from '../keys/rotateShares';

/**
 * Sends a prepared rotation; when the server first wants a fresh code (`reauthentication_required`), keeps
 * it as `awaitingCode` so the screen can ask for the code and then `resume`.
 */
export function useRotationCommit() {
  const [awaitingCode, setAwaitingCode] = useState<PendingRotation | null>(null);

  /** True when the server took the new shares; false when a code is needed first. Other errors throw. */
  const commit = useCallback(async (pending: PendingRotation): Promise<boolean> => {
    try {
      await commitRotation(pending);
      setAwaitingCode(null);
      return true;
    } catch (error) {
      if (isDialError(error, 'reauthentication_required')) {
        setAwaitingCode(pending);
        return false;
      }
      setAwaitingCode(null);
      throw error;
    }
  }, []);

  return { awaitingCode, commit };
}
