import { DialError, SECOND_MS } from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { CodeTarget } from './otpCodes.js';
import { hashToken, SESSION_COOKIE } from './sessions.js';
import type { User } from './users.js';

/** How long a fresh one-time code unlocks sensitive actions (export) for the session that proved it. */
export const REAUTH_VALID_SECONDS = 300;

/**
 * How long after signing in a session counts as having just proved its owner with a code, for replacing
 * the wallet's key shares: recovery on a new device comes right after sign-in and should not need a second
 * code, while an older (possibly stolen) session must prove itself again.
 */
export const SIGN_IN_FRESH_SECONDS = 600;

/**
 * Where a user's re-authentication code goes: their phone by SMS when they have one, else their e-mail. The
 * code is kept under purpose `reauth` (see `CodeSlot`), apart from sign-in codes to the same number or
 * address: the identifier itself is only ever the number or address.
 */
export function reauthTarget(user: User): CodeTarget {
  if (user.phone !== null) return { channel: 'sms', identifier: user.phone };
  if (user.email !== null) return { channel: 'email', identifier: user.email };
  throw new DialError('invalid_data', { details: 'the user has no phone number or e-mail address' });
}

/** The stored hash of the request's session token (after `requireUser` has accepted it). */
export function sessionHashOf(request: FastifyRequest): string {
  return hashToken(request.cookies[SESSION_COOKIE] ?? '');
}

/**
 * Marks the session as re-authenticated now.
 *
 * @returns until when sensitive actions are open to it.
 */
export async function markReauthenticated(
  db: Kysely<Database>,
  sessionHash: string,
  now: Date,
): Promise<Date> {
  await db
    .updateTable('sessions')
    .set({ reauthenticated_at: now.toISOString() })
    .where('token_hash', '=', sessionHash)
    .execute();
  return new Date(now.getTime() + REAUTH_VALID_SECONDS * SECOND_MS);
}

/**
 * Refuses unless the session proved its owner with a fresh code within the last
 * {@link REAUTH_VALID_SECONDS} seconds.
 *
 * @throws {DialError} `reauthentication_required`.
 */
export async function requireRecentReauth(
  db: Kysely<Database>,
  sessionHash: string,
  now: Date,
): Promise<void> {
  const row = await sessionProofTimes(db, sessionHash);
  if (!isWithin(row?.reauthenticated_at, now, REAUTH_VALID_SECONDS)) {
    throw new DialError('reauthentication_required', { details: 'no recent re-authentication' });
  }
}

/**
 * Refuses unless the session signed in within {@link SIGN_IN_FRESH_SECONDS} seconds or re-authenticated
 * within {@link REAUTH_VALID_SECONDS}: both prove the owner with a fresh one-time code. Guards replacing the
 * wallet's key shares, which a stolen session could otherwise use to lock the owner out.
 *
 * @throws {DialError} `reauthentication_required`.
 */
export async function requireFreshCode(db: Kysely<Database>, sessionHash: string, now: Date): Promise<void> {
  const row = await sessionProofTimes(db, sessionHash);
  if (
    !isWithin(row?.created_at, now, SIGN_IN_FRESH_SECONDS) &&
    !isWithin(row?.reauthenticated_at, now, REAUTH_VALID_SECONDS)
  ) {
    throw new DialError('reauthentication_required', { details: 'no fresh sign-in or re-authentication' });
  }
}

function sessionProofTimes(db: Kysely<Database>, sessionHash: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'reauthenticated_at'])
    .where('token_hash', '=', sessionHash)
    .executeTakeFirst();
}

/** Whether an ISO time lies within the last `seconds` before `now`. */
function isWithin(iso: string | null | undefined, now: Date, seconds: number): boolean {
  const age = now.getTime() - (iso == null ? Number.NaN : Date.parse(iso));
  // NaN (never) fails both comparisons; a time in the future (a server whose clock runs ahead) is refused.
  return age >= 0 && age < seconds * SECOND_MS;
}
