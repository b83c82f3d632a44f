import type { AccountProof } from '@dial/api';
import { type AccountChangeAction, accountChangeMessage, DialError } from '@dial/core';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import type { Database } from '../db/database.js';
import { checkSigner, consumeChallenge } from './walletProofs.js';

/**
 * The keys whose signature proves a change to the account: its embedded wallet when it has one (the key split
 * between the owner's browsers, the server and recovery), else the wallets it signs in with that are trusted
 * (its first method, or linked with proof). Empty for an account with neither: its changes can only wait out
 * the cooling-off period.
 */
export async function accountSigners(db: Kysely<Database>, userId: string): Promise<`0x${string}`[]> {
  const embedded = await db
    .selectFrom('wallets')
    .select('address')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (embedded !== undefined) return [getAddress(embedded.address)];
  const wallets = await db
    .selectFrom('identities')
    .select('value')
    .where('user_id', '=', userId)
    .where('kind', '=', 'wallet')
    .where('trusted', '=', 1)
    .orderBy('created_at')
    .orderBy('value')
    .execute();
  return wallets.map((row) => getAddress(row.value));
}

/**
 * Checks a step-up proof before a change is made: uses up the challenge (single use, this user's session, 5
 * minutes), requires the signer to be one of {@link accountSigners}, and checks its EIP-191 signature over
 * core's `accountChangeMessage` for exactly this action and target.
 *
 * @throws {DialError} `wallet_proof_expired` (challenge unknown, used, expired or another session's),
 *   `wallet_proof_invalid` (not one of the account's keys, or a signature by another key or over another
 *   change), `account_proof_required` (the account has no key to prove it with).
 */
export async function verifyAccountProof(
  db: Kysely<Database>,
  owner: { userId: string; sessionHash: string },
  change: { action: AccountChangeAction; target: string },
  proof: AccountProof,
  now: Date,
): Promise<void> {
  await consumeChallenge(db, { ...owner, purpose: 'account-change' }, proof.challenge, now);
  const signers = await accountSigners(db, owner.userId);
  if (signers.length === 0) {
    throw new DialError('account_proof_required', { details: 'the account has no key yet' });
  }
  if (!signers.some((signer) => signer.toLowerCase() === proof.address.toLowerCase())) {
    throw new DialError('wallet_proof_invalid', { details: "not one of the account's keys" });
  }
  const message = accountChangeMessage({
    ...change,
    challenge: proof.challenge,
    userId: owner.userId,
    address: proof.address,
  });
  await checkSigner(message, proof.signature, proof.address);
}
