import { CHANNELS } from '@dial/core';
import type { Challenge } from './useSignInFlow';

/**
 * The sign-in code step, kept in sessionStorage (this tab only, gone when it closes) so that a reload on the
 * code screen opens it again: the code sent still works. Where the code went and the waits, never the code.
 */
const KEY = 'dial.signInCode';

/** The code step as kept: the challenge, and whether its screen was showing (or the form, after "Back"). */
export interface KeptChallenge {
  challenge: Challenge;
  showing: boolean;
}

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Keeps the code step for a reload; `null` forgets it (signed in). */
export function keepChallenge(kept: KeptChallenge | null, storage?: SessionStore): void {
  try {
    const store = storage ?? sessionStorage;
    if (kept === null) store.removeItem(KEY);
    else store.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage blocked or full (or none, in Node): a reload returns to the form, as before.
  }
}

/**
 * The kept code step, unless there is none, its code has expired by `now`, or it is not one Dial wrote. The
 * challenge's `started` is as the server answered then: its waits are `resendAt` and `expiresAt`.
 */
export function readKeptChallenge(now: number, storage?: SessionStore): KeptChallenge | null {
  try {
    const kept = JSON.parse((storage ?? sessionStorage).getItem(KEY) ?? 'null');
    const { started, display, resendAt, expiresAt } = kept.challenge;
    return expiresAt > now &&
      CHANNELS.includes(started.channel) &&
      typeof started.to === 'string' &&
      typeof display === 'string' &&
      typeof resendAt === 'number'
      ? { challenge: { started, display, resendAt, expiresAt }, showing: kept.showing === true }
      : null;
  } catch {
    // Nothing kept, not JSON, or blocked storage.
    return null;
  }
}
