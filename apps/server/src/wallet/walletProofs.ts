import { randomBytes } from 'node:crypto';
import {
  DialError,
  SECOND_MS,
  type WalletProofFields,
  type WalletProofPurpose,
  walletProofMessage,
} from '@dial/core';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Hex, isHex, recoverMessageAddress } from 'viem';
import type { AppContext } from '../appContext.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { hashToken } from '../auth/sessions.js';
import { rateKey } from '../config/rateKey.js';
import type { Database, WalletChallengePurpose } from '../db/database.js';

/** How long a challenge can be signed and used. */
export const CHALLENGE_TTL_SECONDS = 300;

/** A signature by the wallet's key over {@link walletProofMessage}, with the challenge it signed. */
export interface WalletProof {
  challenge: string;
  /** The 65-byte EIP-191 signature, 0x and 130 hex digits. */
  signature: string;
}

/** Who may use a challenge: the user, through the session that asked for it, for one purpose. */
export interface ChallengeOwner {
  userId: string;
  /** SHA-256 of the session token (`sessionHashOf`). */
  sessionHash: string;
  purpose: WalletChallengePurpose;
}

/**
 * Issues a challenge for the wallet's key to sign, to the signed-in request's user and session, for one
 * purpose: counted against `walletChallengesPerUser` (each is a row until used or swept), then 256 random
 * bits (base64url), stored as its hash with the user, the session and the purpose, usable once within
 * {@link CHALLENGE_TTL_SECONDS}. The one way both challenge routes (the wallet's and the account's) make one.
 *
 * @throws {DialError} `too_many_requests` past the user's limit.
 */
export async function issueChallenge(
  ctx: AppContext,
  request: FastifyRequest,
  purpose: WalletChallengePurpose,
): Promise<{ challenge: string; expiresAt: string }> {
  const userId = request.user!.id;
  const now = ctx.now();
  await ctx.rateLimiter.consume(
    rateKey('walletChallengesPerUser', userId),
    ctx.config.rateLimits.walletChallengesPerUser,
    now,
  );
  const challenge = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_SECONDS * SECOND_MS).toISOString();
  await ctx.db
    .insertInto('wallet_challenges')
    .values({
      challenge_hash: hashToken(challenge),
      user_id: userId,
      session_hash: sessionHashOf(request),
      purpose,
      expires_at: expiresAt,
      created_at: now.toISOString(),
    })
    .execute();
  return { challenge, expiresAt };
}

/**
 * Checks that `proof` is the wallet key's signature over exactly this change, before anything is stored:
 * uses up the challenge (one conditional delete, so it works once across servers, and only for the user,
 * session and purpose it was issued to, before it expires), rebuilds the message from what the server is
 * about to store, and recovers the signer, which must be `fields.address`.
 *
 * @throws {DialError} `wallet_proof_expired` when the challenge is unknown, used, expired, or another
 *   session's, user's or purpose's; `wallet_proof_invalid` when the signature is malformed or by another key.
 */
export async function verifyWalletProof(
  db: Kysely<Database>,
  owner: ChallengeOwner,
  proof: WalletProof,
  fields: Omit<WalletProofFields, 'purpose' | 'challenge' | 'userId'>,
  now: Date,
): Promise<void> {
  await consumeChallenge(db, owner, proof.challenge, now);
  const message = walletProofMessage({
    ...fields,
    purpose: owner.purpose as WalletProofPurpose,
    challenge: proof.challenge,
    userId: owner.userId,
  });
  await checkSigner(message, proof.signature, fields.address);
}

/**
 * Uses up a challenge: one conditional delete, so it works once across servers, and only for the user,
 * session and purpose it was issued to, before it expires.
 *
 * @throws {DialError} `wallet_proof_expired` when the challenge is unknown, used, expired, or another
 *   session's, user's or purpose's.
 */
export async function consumeChallenge(
  db: Kysely<Database>,
  owner: ChallengeOwner,
  challenge: string,
  now: Date,
): Promise<void> {
  const used = await db
    .deleteFrom('wallet_challenges')
    .where('challenge_hash', '=', hashToken(challenge))
    .where('user_id', '=', owner.userId)
    .where('session_hash', '=', owner.sessionHash)
    .where('purpose', '=', owner.purpose)
    .where('expires_at', '>', now.toISOString())
    .returning('challenge_hash')
    .executeTakeFirst();
  if (used === undefined) {
    throw new DialError('wallet_proof_expired', {
      details: "challenge unknown, used, expired or not this session's",
    });
  }
}

/**
 * Checks that `signature` is `address`'s EIP-191 signature of `message`.
 *
 * @throws {DialError} `wallet_proof_invalid` when the signature is malformed or by another key.
 */
export async function checkSigner(message: string, signature: string, address: string): Promise<void> {
  let signer: string;
  try {
    if (!isHex(signature) || signature.length !== 132) throw new Error('not 65 bytes of hex');
    signer = await recoverMessageAddress({ message, signature: signature as Hex });
  } catch (error) {
    throw new DialError('wallet_proof_invalid', { details: 'malformed signature', cause: error });
  }
  if (signer.toLowerCase() !== address.toLowerCase()) {
    throw new DialError('wallet_proof_invalid', { details: 'signed by another key' });
  }
}
