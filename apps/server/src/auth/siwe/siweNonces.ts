import { randomBytes } from 'node:crypto';
import { DialError, SECOND_MS } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { hashToken } from '../sessions.js';

/** How long a nonce may be used: 10 minutes. */
export const SIWE_NONCE_TTL_SECONDS = 600;
/** 24 random bytes, in hex: 192 bits, 48 characters of EIP-4361's alphanumeric nonce grammar. */
const NONCE_BYTES = 24;

/**
 * Whom a nonce is bound to: a sign-in nonce to the browser that asked (the hash of its `dial_device`
 * cookie), a link nonce to the session that asked (the hash of its token).
 */
export type SiweNonceBinding =
  | { purpose: 'sign-in'; deviceHash: string }
  | { purpose: 'link'; sessionHash: string };

/**
 * Issues a nonce for a Sign-In with Ethereum message: 192 random bits in hex, bound to `binding`, valid for
 * {@link SIWE_NONCE_TTL_SECONDS}. Only its SHA-256 is stored.
 */
export async function issueSiweNonce(
  db: Kysely<Database>,
  binding: SiweNonceBinding,
  now: Date,
): Promise<{ nonce: string; expiresAt: Date }> {
  const nonce = randomBytes(NONCE_BYTES).toString('hex');
  const expiresAt = new Date(now.getTime() + SIWE_NONCE_TTL_SECONDS * SECOND_MS);
  await db
    .insertInto('siwe_nonces')
    .values({
      nonce_hash: hashToken(nonce),
      purpose: binding.purpose,
      device_hash: binding.purpose === 'sign-in' ? binding.deviceHash : null,
      session_hash: binding.purpose === 'link' ? binding.sessionHash : null,
      expires_at: expiresAt.toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { nonce, expiresAt };
}

/**
 * Checks, without using it, that `nonce` was issued to `binding` and can still be used. A nonce never issued,
 * issued for the other purpose, to another browser or session, or expired is the same `siwe_nonce_invalid`
 * (a browser learns nothing about nonces not its own); one already used is `siwe_nonce_used`.
 *
 * @throws {DialError} `siwe_nonce_invalid`, `siwe_nonce_used`.
 */
export async function checkSiweNonce(
  db: Kysely<Database>,
  nonce: string,
  binding: SiweNonceBinding,
  now: Date,
): Promise<void> {
  const row = await db
    .selectFrom('siwe_nonces')
    .selectAll()
    .where('nonce_hash', '=', hashToken(nonce))
    .executeTakeFirst();
  const bound =
    row !== undefined &&
    row.purpose === binding.purpose &&
    (binding.purpose === 'sign-in'
      ? row.device_hash === binding.deviceHash
      : row.session_hash === binding.sessionHash);
  if (!bound) throw new DialError('siwe_nonce_invalid');
  if (row.used_at !== null) throw new DialError('siwe_nonce_used');
  if (Date.parse(row.expires_at) <= now.getTime()) throw new DialError('siwe_nonce_invalid');
}

/**
 * Uses a nonce that {@link checkSiweNonce} accepted: sets `used_at` only where it is still null and the nonce
 * has not expired, in one statement, so that of two requests with the same nonce (a double submit, a replay
 * racing the original) on any number of servers exactly one gets through.
 *
 * @throws {DialError} `siwe_nonce_used` when another request used it first (or it expired meanwhile).
 */
export async function useSiweNonce(
  db: Kysely<Database>,
  nonce: string,
  binding: SiweNonceBinding,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  let update = db
    .updateTable('siwe_nonces')
    .set({ used_at: at })
    .where('nonce_hash', '=', hashToken(nonce))
    .where('purpose', '=', binding.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at);
  update =
    binding.purpose === 'sign-in'
      ? update.where('device_hash', '=', binding.deviceHash)
      : update.where('session_hash', '=', binding.sessionHash);
  const result = await update.executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new DialError('siwe_nonce_used');
}
