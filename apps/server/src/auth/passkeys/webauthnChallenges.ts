import { randomBytes } from 'node:crypto';
import { DialError, SECOND_MS } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { hashToken } from '../sessions.js';

/** How long a passkey challenge may be used: 5 minutes, the options' `timeout`. */
export const WEBAUTHN_CHALLENGE_TTL_SECONDS = 300;

/**
 * Whom a challenge is bound to: a sign-up's or sign-in's to the browser that asked (the hash of its
 * `dial_device` cookie), a link's to the session that asked (the hash of its token).
 */
export type WebauthnChallengeBinding =
  | { purpose: 'sign-up' | 'sign-in'; deviceHash: string }
  | { purpose: 'link'; sessionHash: string };

/**
 * Issues a challenge for a passkey ceremony: 256 random bits, base64url, bound to `binding`, usable once within
 * {@link WEBAUTHN_CHALLENGE_TTL_SECONDS}. Only its SHA-256 is stored, with the user handle a new credential is
 * to be made with (sign-up, link).
 */
export async function issueWebauthnChallenge(
  db: Kysely<Database>,
  binding: WebauthnChallengeBinding,
  userHandle: string | null,
  now: Date,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge_hash: hashToken(challenge),
      purpose: binding.purpose,
      device_hash: binding.purpose === 'link' ? null : binding.deviceHash,
      session_hash: binding.purpose === 'link' ? binding.sessionHash : null,
      user_handle: userHandle,
      expires_at: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_SECONDS * SECOND_MS).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return challenge;
}

/**
 * Uses up the challenge a ceremony's `clientDataJSON` carries: one conditional `DELETE … RETURNING` bound to
 * the purpose, the browser or session, and the expiry, so of two requests with one challenge (a replay, a
 * double submit) on any number of servers at most one gets through, and a challenge issued to another browser
 * or session, for another purpose, never issued or expired is refused the same way. It is used before the
 * signature is checked: a failed ceremony cannot be tried again with it.
 *
 * @returns the user handle it was issued with (null for a sign-in).
 * @throws {DialError} `passkey_challenge_invalid`.
 */
export async function useWebauthnChallenge(
  db: Kysely<Database>,
  challenge: string,
  binding: WebauthnChallengeBinding,
  now: Date,
): Promise<{ userHandle: string | null }> {
  let query = db
    .deleteFrom('webauthn_challenges')
    .where('challenge_hash', '=', hashToken(challenge))
    .where('purpose', '=', binding.purpose)
    .where('expires_at', '>', now.toISOString());
  query =
    binding.purpose === 'link'
      ? query.where('session_hash', '=', binding.sessionHash)
      : query.where('device_hash', '=', binding.deviceHash);
  const row = await query.returning('user_handle').executeTakeFirst();
  if (row === undefined) throw new DialError('passkey_challenge_invalid');
  return { userHandle: row.user_handle };
}

/**
 * The challenge a ceremony's `clientDataJSON` (base64url) carries, read without trusting anything else in it
 * (the WebAuthn library checks the rest against what it must be).
 *
 * @throws {DialError} `passkey_invalid` when it is not JSON with a string `challenge`.
 */
export function challengeOf(clientDataJSON: string): string {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    if (typeof challenge === 'string' && /^[A-Za-z0-9_-]{1,2048}$/.test(challenge)) return challenge;
  } catch {
    // Not JSON: refused below.
  }
  throw new DialError('passkey_invalid', { details: 'clientDataJSON holds no challenge' });
}
