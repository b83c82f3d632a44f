import type { StepUpProof } from '@dial/api';
import { type AccountChangeAction, DialError, passkeyChangeChallenge } from '@dial/core';
import type { Kysely } from 'kysely';
import type { AppContext } from '../appContext.js';
import { createPasskeyChecks, type PasskeyChecks } from '../auth/passkeys/passkeyCeremonies.js';
import type { Database } from '../db/database.js';
import { accountSigners, verifyAccountProof } from '../wallet/accountProof.js';
import { consumeChallenge } from '../wallet/walletProofs.js';

/** The credential ids of the account's trusted passkeys (its first method, or linked with proof), oldest first. */
export async function trustedPasskeys(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('passkeys')
    .innerJoin('identities', 'identities.id', 'passkeys.identity_id')
    .select('passkeys.credential_id')
    .where('passkeys.user_id', '=', userId)
    .where('identities.trusted', '=', 1)
    .orderBy('passkeys.created_at')
    .orderBy('passkeys.credential_id')
    .execute();
  return rows.map((row) => row.credential_id);
}

/**
 * Whether the account can prove a change at once: it has a key ({@link accountSigners}) or a trusted passkey.
 * An account that can is held to proving what only proof may do (removing a trusted method, cancelling).
 */
export async function canProve(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await accountSigners(db, userId)).length > 0 || (await trustedPasskeys(db, userId)).length > 0;
}

const checksByConfig = new WeakMap<object, PasskeyChecks>();

/**
 * Checks a step-up proof before a change is made: the account key's signature (`verifyAccountProof`), or an
 * assertion of one of the account's trusted passkeys. A passkey's proof is held to what the key's is: it uses
 * up the same single-use challenge (`POST /api/account/proof`: this user's session, 5 minutes, purpose
 * `account-change`), and the passkey signs core's `passkeyChangeChallenge` over exactly this action and
 * target, that challenge, the account and the passkey's own id; then the assertion is verified as a sign-in's
 * (origin, RP ID, user verification, signature, a counter that increased). A passkey linked without proof (a
 * cooling-off) never proves a change: whoever waited one out would hold the account's key.
 *
 * @throws {DialError} `wallet_proof_expired` (the challenge), `wallet_proof_invalid` (not one of the
 *   account's keys or trusted passkeys), `passkey_invalid` (the assertion), `account_proof_required`.
 */
export async function verifyStepUp(
  ctx: AppContext,
  owner: { userId: string; sessionHash: string },
  change: { action: AccountChangeAction; target: string },
  proof: StepUpProof,
  now: Date,
): Promise<void> {
  if (!('passkey' in proof)) {
    await verifyAccountProof(ctx.db, owner, change, proof, now);
    return;
  }
  await consumeChallenge(ctx.db, { ...owner, purpose: 'account-change' }, proof.challenge, now);
  const stored = await ctx.db
    .selectFrom('passkeys')
    .innerJoin('identities', 'identities.id', 'passkeys.identity_id')
    .select([
      'passkeys.identity_id',
      'passkeys.credential_id',
      'passkeys.public_key',
      'passkeys.counter',
      'passkeys.transports',
      'passkeys.user_handle',
    ])
    .where('passkeys.credential_id', '=', proof.passkey.id)
    .where('passkeys.user_id', '=', owner.userId)
    .where('identities.trusted', '=', 1)
    .executeTakeFirst();
  if (stored === undefined) {
    throw new DialError('wallet_proof_invalid', { details: "not one of the account's trusted passkeys" });
  }
  let checks = checksByConfig.get(ctx.config);
  if (checks === undefined) {
    checks = createPasskeyChecks(ctx.config);
    checksByConfig.set(ctx.config, checks);
  }
  const expected = passkeyChangeChallenge({
    ...change,
    challenge: proof.challenge,
    userId: owner.userId,
    credentialId: stored.credential_id,
  });
  await checks.verifyAssertion(ctx.db, proof.passkey, expected, stored, now);
}
