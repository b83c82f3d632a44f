import { type DialError, isDialError } from '@dial/core';
import { useCallback, useEffect, useState } from 'react';
import { toDialError } from '../api/describeError';
import { getConfig, getMe } from '../api/endpoints';
import type { AppConfig, User } from '../api/types';

/** The app's states: the whole routing of the app is this tiny state machine. */
export type Session =
  | { status: 'loading' }
  | { status: 'failed'; error: DialError }
  | { status: 'signed-out'; config: AppConfig }
  | { status: 'signed-in'; config: AppConfig; user: User };

export interface SessionControls {
  session: Session;
  /** After a successful code check. */
  signedIn(user: User): void;
  /** After signing out, or when the server says the session is gone. */
  signedOut(): void;
  /** Tries the start-up requests again after a failure. */
  retry(): void;
}

/** Loads who is signed in (GET /api/me) and the server's configuration (GET /api/config). */
export function useSession(): SessionControls {
  const [session, setSession] = useState<Session>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the trigger for a retry.
  useEffect(() => {
    const controller = new AbortController();
    setSession({ status: 'loading' });
    loadSession(controller.signal).then(
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

async function loadSession(signal: AbortSignal): Promise<Session> {
  const [user, config] = await Promise.all([
    getMe(signal).catch((error: unknown) => {
      if (isDialError(error, 'unauthorized')) return null;
      throw error;
    }),
    getConfig(signal),
  ]);
  return user === null ? { status: 'signed-out', config } : { status: 'signed-in', config, user };
}
