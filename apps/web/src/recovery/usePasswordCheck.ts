import { useCallback, useEffect, useRef, useState } from 'react';
import { createPasswordCheck, type PasswordCheck } from './passwordCheck';

/** Where the strength check is: its dictionaries loading, loaded, or failed to load. */
export type PasswordCheckStatus = 'loading' | 'ready' | 'failed';

export interface PasswordCheckState {
  status: PasswordCheckStatus;
  /**
   * Why `password` is too easy to guess, or null: waits for the check to load (loading it again after a
   * failure). Rejects when it cannot be loaded; `status` is then `failed`.
   */
  judge(password: string, userInputs: readonly string[]): Promise<string | null>;
  /** Loads the check again after a failure. */
  retry(): void;
}

/**
 * The recovery password's strength check for one screen: starts loading when `enabled` (the password is
 * the method chosen), ends its worker when the screen goes.
 */
export function usePasswordCheck(
  enabled: boolean,
  create: () => PasswordCheck = createPasswordCheck,
): PasswordCheckState {
  const [check] = useState(create);
  const [status, setStatus] = useState<PasswordCheckStatus>('loading');
  const live = useRef(true);
  const update = useCallback((next: PasswordCheckStatus) => {
    if (live.current) setStatus(next);
  }, []);

  const retry = useCallback(() => {
    if (check.now() === undefined) update('loading');
    check.load().then(
      () => update('ready'),
      () => update('failed'),
    );
  }, [check, update]);

  const judge = useCallback(
    async (password: string, userInputs: readonly string[]) => {
      if (check.now() === undefined) update('loading');
      try {
        const weakness = await (await check.load())(password, userInputs);
        update('ready');
        return weakness;
      } catch (error) {
        update('failed');
        throw error;
      }
    },
    [check, update],
  );

  useEffect(() => {
    if (enabled) retry();
  }, [enabled, retry]);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      check.close();
    };
  }, [check]);

  return { status, judge, retry };
}
