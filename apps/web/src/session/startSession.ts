import { toDialError } from '../api/describeError';
import { loadSession, type Session } from './loadSession';

/** The start-up requests' outcome, once they are answered: a session, or a failed one (never 'loading'). */
export interface StartedSession {
  /** Settles with the outcome; never rejects. */
  readonly promise: Promise<Session>;
  /** The outcome, once there. */
  readonly settled: Session | undefined;
}

let started: StartedSession | undefined;

/**
 * Starts the start-up requests (`/api/me`, `/api/config`) now, once: main.tsx calls it as the app's code
 * starts, so they travel while React loads and renders, and the first render can be the sign-in form (or
 * the wallet) straight away, with no "Loading…" render first. `useSession` takes the outcome.
 */
export function startSession(load: () => Promise<Session> = () => loadSession()): StartedSession {
  if (started !== undefined) return started;
  let settled: Session | undefined;
  const promise = load().then(
    (session) => session,
    (error: unknown): Session => ({ status: 'failed', error: toDialError(error) }),
  );
  const tracking = promise.then((session) => {
    settled = session;
    return session;
  });
  started = {
    promise: tracking,
    get settled() {
      return settled;
    },
  };
  return started;
}

/** What `startSession` started, if it did (the app's first load; not a retry, not a test). */
export function startedSession(): StartedSession | undefined {
  return started;
}

/**
 * Resolves when the start-up requests are answered, or after `maxWaitMs` if they take longer (then the app
 * shows "Loading…" until they are). main.tsx renders the app then. When the answer is signed in and
 * `signedInNeeds` is given (the wallet screen's code), it waits for that too, within the same `maxWaitMs`:
 * a wallet screen whose code is already here renders at once, where a lazy one would hold its placeholder.
 * A failure of `signedInNeeds` only ends the wait.
 */
export function whenSessionStarted(
  session: StartedSession,
  maxWaitMs: number,
  signedInNeeds?: () => Promise<unknown>,
): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    session.promise.then((outcome) => {
      if (outcome.status === 'signed-in' && signedInNeeds !== undefined) signedInNeeds().then(done, done);
      else done();
    });
  });
}

/** Forgets the started session (tests). */
export function resetStartedSession(): void {
  started = undefined;
}
