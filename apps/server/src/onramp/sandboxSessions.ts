import { randomBytes } from 'node:crypto';
import { MINUTE_MS, type OnrampExperience } from '@dial/core';
import type { Kysely, Selectable } from 'kysely';
import { hashToken } from '../auth/sessions.js';
import type { Database, OnrampSessionsTable } from '../db/database.js';
import type { OnrampSessionRequest } from './onrampProvider.js';

/** A sandbox token lives 5 minutes, as Coinbase's do. */
export const SANDBOX_TOKEN_TTL_MS = 5 * MINUTE_MS;

/** A stored sandbox session. */
export type SandboxSession = Selectable<OnrampSessionsTable>;

/** Why a token is refused: `unknown` (not issued by this server), `expired` or `used`. */
export type SandboxTokenProblem = 'unknown' | 'expired' | 'used';

/** Issues a random token (32 bytes, base64url) for one purchase and stores its SHA-256 with the purchase. */
export async function issueSandboxToken(
  db: Kysely<Database>,
  request: OnrampSessionRequest,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('onramp_sessions')
    .values({
      token_hash: hashToken(token),
      user_id: request.userId,
      wallet_address: request.walletAddress,
      asset: request.asset,
      network: request.network,
      amount: request.amount,
      experience: request.experience satisfies OnrampExperience,
      expires_at: new Date(now.getTime() + SANDBOX_TOKEN_TTL_MS).toISOString(),
      used_at: null,
      outcome: null,
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

/** Reads a token's session without using it: the session, or why it cannot be used. */
export async function inspectSandboxToken(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{ session: SandboxSession } | { problem: SandboxTokenProblem }> {
  const session = await db
    .selectFrom('onramp_sessions')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (session === undefined) return { problem: 'unknown' };
  if (session.used_at !== null) return { problem: 'used' };
  if (session.expires_at <= now.toISOString()) return { problem: 'expired' };
  return { session };
}

/**
 * Uses a token, once: one conditional update (`used_at is null and expires_at > now`), so of two servers or
 * two requests paying with the same token at once exactly one gets the session.
 */
export async function consumeSandboxToken(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{ session: SandboxSession } | { problem: SandboxTokenProblem }> {
  const tokenHash = hashToken(token);
  const result = await db
    .updateTable('onramp_sessions')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const inspected = await inspectSandboxToken(db, token, now);
    // Between the update and the read another request may have used it: never report a usable token here.
    return 'problem' in inspected ? inspected : { problem: 'used' };
  }
  const session = await db
    .selectFrom('onramp_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirstOrThrow();
  return { session };
}

/** Records how crediting the wallet ended. */
export async function recordSandboxOutcome(
  db: Kysely<Database>,
  token: string,
  outcome: 'credited' | 'failed',
): Promise<void> {
  await db
    .updateTable('onramp_sessions')
    .set({ outcome })
    .where('token_hash', '=', hashToken(token))
    .execute();
}
