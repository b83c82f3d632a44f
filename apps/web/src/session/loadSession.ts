import { type DialError, isDialError } from '@dial/core';
import { getConfig, getMe } from '../api/endpoints';
import type { AppConfig, User } from '../api/types';

/** The app's states: the whole routing of the app is this tiny state machine. */
export type Session =
  | { status: 'loading' }
  | { status: 'failed'; error: DialError }
  | { status: 'signed-out'; config: AppConfig }
  | { status: 'signed-in'; config: AppConfig; user: User };

/** Who is signed in (GET /api/me) and the server's configuration (GET /api/config), both at once. */
export async function loadSession(signal?: AbortSignal): Promise<Session> {
  const [user, config] = await Promise.all([
    getMe(signal).catch((error: unknown) => {
      if (isDialError(error, 'unauthorized')) return null;
      throw error;
    }),
    getConfig(signal),
  ]);
  return user === null ? { status: 'signed-out', config } : { status: 'signed-in', config, user };
}
