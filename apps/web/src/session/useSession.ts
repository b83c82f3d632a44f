import { useCallback, useEffect, useState } from 'react';
import { toDialError } from '../api/describeError';
import type { User } from '../api/types';
import { loadSession, type Session } from './loadSession';
import { type StartedSession, startedSession } from './startSession';

export type { Session } from './loadSession';

export interface SessionControls {
  session: Session;
  /** After a successful code check. */
  signedIn(user: User): void;
  /** After signing out, or when the server says the session is gone. */
  signedOut(): void;
  /** Tries the start-up requests again after a failure. */
  retry(): void;
}

/**
 * Loads who is signed in (GET /api/me) and the server's configuration (GET /api/config). The first time, it
 * takes the requests main.tsx started as the app's code started (`startSession`), and starts with their
 * outcome when they are answered already; a retry asks again.
 */
export function useSession(started: StartedSession | undefined = startedSession()): SessionControls {
  const [session, setSession] = useState<Session>(() => started?.settled ?? { status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a retry.
  useEffect(() => {
    const controller = new AbortController();
    const early = attempt === 0 ? started?.promise : undefined;
    if (early === undefined) setSession({ status: 'loading' });
    (early ?? loadSession(controller.signal)).then(
      (loaded) => {
        if (!controller.signal.aborted) setSession(loaded);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setSession({ status: 'failed', error: toDialError(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const signedIn = useCallback((user: User) => {
    setSession((current) =>
      'config' in current ? { status: 'signed-in', config: current.config, user } : current,
    );
  }, []);
  const signedOut = useCallback(() => {
    setSession((current) =>
      'config' in current ? { status: 'signed-out', config: current.config } : current,
    );
  }, []);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { session, signedIn, signedOut, retry };
}
