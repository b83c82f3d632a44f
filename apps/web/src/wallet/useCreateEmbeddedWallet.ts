import { useCallback, useRef, useState } from 'react';
import { getMe } from '../api/endpoints';
import type { User } from '../api/types';
import { openWallet } from '../keys/openWallet';

/**
 * Creates an embedded wallet for an account whose wallet is the person's own wallet app (for the button on
 * /settings): its key is split and registered as at a first sign-in (`openWallet`, which finds no embedded
 * wallet and makes one). From then on the embedded wallet is the account's wallet: `create` resolves with
 * the account as the server now shows it (`user.wallet.kind === 'embedded'`), for the app to show.
 *
 * A second press while it runs does nothing; `error` holds why the last try failed.
 */
export function useCreateEmbeddedWallet(userId: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const running = useRef(false);

  const create = useCallback(async (): Promise<User | null> => {
    if (running.current) return null;
    running.current = true;
    setPending(true);
    setError(null);
    try {
      await openWallet(userId, () => undefined);
      return await getMe();
    } catch (caught) {
      setError(caught);
      return null;
    } finally {
      running.current = false;
      setPending(false);
    }
  }, [userId]);

  return { create, pending, error };
}
