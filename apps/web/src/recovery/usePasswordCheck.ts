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
  /**
   * The screen's current mount (null once it is gone): a load or a judgement reports its outcome only while
   * the mount it began under lasts. In development StrictMode mounts the screen twice, and the first mount's
   * load fails as its worker is closed: that failure must not be shown over the second mount's load.
   */
  const mount = useRef<object | null>(null);
  const reporter = useCallback(() => {
    const started = mount.current;
    return (next: PasswordCheckStatus) => {
      if (started !== null && mount.current === started) setStatus(next);
    };
  }, []);

  const retry = useCallback(() => {
    const update = reporter();
    if (check.now() === undefined) update('loading');
    check.load().then(
      () => update('ready'),
      () => update('failed'),
    );
  }, [check, reporter]);

  const judge = useCallback(
    async (password: string, userInputs: readonly string[]) => {
      const update = reporter();
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
    [check, reporter],
  );

  // Before the effect that loads, so that a mount is set when its load begins.
  useEffect(() => {
    mount.current = {};
    return () => {
      mount.current = null;
      check.close();
    };
  }, [check]);

  useEffect(() => {
    if (enabled) retry();
  }, [enabled, retry]);

  return { status, judge, retry };
}
