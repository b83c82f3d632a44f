import { isDialError } from '@dial/core';
import { useCallback, useState } from 'react';
import { logout } from '../api/endpoints';

/**
 * Signs out on the server, then tells the app. The device share stays in IndexedDB, so signing back in on
 * this browser opens the same wallet.
 */
export function useSignOut(onSignedOut: () => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const signOut = useCallback(async () => {
    setPending(true);
    setError(null);
    try {
      await logout();
      onSignedOut();
    } catch (caught) {
      // Already signed out on the server: the result is the same.
      if (isDialError(caught, 'unauthorized')) onSignedOut();
      else setError(caught);
    } finally {
      setPending(false);
    }
  }, [onSignedOut]);

  return { signOut, pending, error };
}
