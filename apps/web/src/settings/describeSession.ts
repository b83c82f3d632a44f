import type { SessionInfo } from '../api/types';

const SIGNED_IN_WITH: Record<NonNullable<SessionInfo['method']>, string> = {
  phone: 'Signed in with a phone number',
  email: 'Signed in with an email address',
  wallet: 'Signed in with a wallet',
  passkey: 'Signed in with a passkey',
};

/** How a session signed in, as a sentence ("Signed in with a wallet"); sessions older than that say less. */
export function describeSignIn(method: SessionInfo['method']): string {
  return method === null ? 'Signed in' : SIGNED_IN_WITH[method];
}

/** The sessions with this browser's first, then the others as the server ordered them (last seen first). */
export function currentFirst(sessions: readonly SessionInfo[]): SessionInfo[] {
  return [
    ...sessions.filter((session) => session.current),
    ...sessions.filter((session) => !session.current),
  ];
}
