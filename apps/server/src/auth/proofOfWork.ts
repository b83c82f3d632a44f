import { createHash } from 'node:crypto';
import { DialError, type ErrorBody, SECOND_MS } from '@dial/core';
import { type Challenge, createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey as derivePbkdf2Key } from 'altcha-lib/algorithms/pbkdf2';
import type { Kysely } from 'kysely';
import type { ProofOfWorkPolicy } from '../config/otpPolicy.js';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { hashToken } from './sessions.js';

/** The ALTCHA algorithm: PBKDF2 runs natively in the browser (WebCrypto), so a phone is not far behind a server. */
const ALGORITHM = 'PBKDF2/SHA-256';
/** A challenge as the browser receives it (ALTCHA v2: signed parameters). */
export type ProofChallenge = Pick<Challenge, 'parameters' | 'signature'>;

/** The HMAC secrets that sign challenges and their derived keys, from the server's proof-of-work key. */
export interface ProofKeys {
  signature: string;
  keySignature: string;
}

/** Derives the two ALTCHA secrets from the server's `dial/proof-of-work` key. */
export function proofKeysFrom(key: Uint8Array): ProofKeys {
  const derive = (label: string) => createHash('sha256').update(key).update(label).digest('hex');
  return { signature: derive('altcha challenge'), keySignature: derive('altcha derived key') };
}

/**
 * `403 proof_of_work_required`, whose answer carries a fresh challenge for the browser to solve:
 * `{"error":{"code","message"},"challenge":{"parameters":{…},"signature":"…"}}`.
 */
export class ProofOfWorkRequired extends DialError {
  readonly challenge: ProofChallenge;

  constructor(challenge: ProofChallenge, details: string) {
    super('proof_of_work_required', { details });
    this.challenge = challenge;
  }

  override toBody(): ErrorBody & { challenge: ProofChallenge } {
    return { ...super.toBody(), challenge: this.challenge };
  }
}

/** What a challenge is for: a hash of the purpose and the number or address, so it serves no other. */
export function proofSubject(purpose: string, channel: string, identifier: string): string {
  return createHash('sha256')
    .update(`${purpose}\n${channel}\n${identifier}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
}

/**
 * Makes a challenge for `subject`, valid `policy.ttlSeconds` from `now`: deterministic ALTCHA, so the server
 * derives the answer's key once here and checks a solution with one HMAC (no key derivation per check).
 */
export async function createProofChallenge(
  keys: ProofKeys,
  subject: string,
  policy: ProofOfWorkPolicy,
  now: Date,
): Promise<ProofChallenge> {
  const { parameters, signature } = await createChallenge({
    algorithm: ALGORITHM,
    cost: policy.cost,
    counter: randomInt(policy.counterMax, policy.counterMin),
    deriveKey: derivePbkdf2Key,
    data: { subject },
    expiresAt: Math.floor(now.getTime() / 1000) + policy.ttlSeconds,
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
  if (signature === undefined) throw new Error('ALTCHA returned an unsigned challenge');
  return { parameters, signature };
}

/**
 * Checks a proof of work (base64 of ALTCHA's `{challenge, solution}` payload) for `subject`, and uses it up:
 * accepted once, on every server sharing the database.
 *
 * @returns `true` for a valid first use; `false` for a proof that is expired, for another subject, forged,
 *   wrong or already used (the caller then asks for a new one).
 * @throws {DialError} `invalid_data` when the proof is not such a payload at all.
 */
export async function useProof(
  db: Kysely<Database>,
  keys: ProofKeys,
  proof: string,
  subject: string,
  now: Date,
): Promise<boolean> {
  const { challenge, solution } = parseProof(proof);
  const expiresAt = challenge.parameters.expiresAt;
  // The server's clock decides, not ALTCHA's own check against Date.now().
  if (typeof expiresAt !== 'number' || expiresAt * SECOND_MS <= now.getTime()) return false;
  if (challenge.parameters.data?.subject !== subject) return false;
  const result = await verifySolution({
    challenge,
    solution,
    deriveKey: derivePbkdf2Key,
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
  if (!result.verified) return false;
  try {
    await db
      .insertInto('proof_of_work_uses')
      .values({
        challenge_hash: hashToken(challenge.signature),
        expires_at: new Date(expiresAt * SECOND_MS).toISOString(),
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  return true;
}

interface ParsedProof {
  challenge: { parameters: Challenge['parameters']; signature: string };
  solution: { counter: number; derivedKey: string };
}

/** Reads the payload's shape; ALTCHA checks the values (hex, counter range, signature). */
function parseProof(proof: string): ParsedProof {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
  } catch {
    throw new DialError('invalid_data', { details: 'proof is not base64 JSON' });
  }
  const { challenge, solution } = (isObject(payload) ? payload : {}) as Record<string, unknown>;
  if (
    !isObject(challenge) ||
    !isObject(challenge.parameters) ||
    typeof challenge.signature !== 'string' ||
    !isObject(solution) ||
    typeof solution.counter !== 'number' ||
    typeof solution.derivedKey !== 'string' ||
    !isParameters(challenge.parameters)
  ) {
    throw new DialError('invalid_data', { details: 'proof is not an ALTCHA payload' });
  }
  return {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  };
}

function isParameters(
  value: Record<string, unknown>,
): value is Challenge['parameters'] & Record<string, unknown> {
  return (
    typeof value.algorithm === 'string' &&
    typeof value.nonce === 'string' &&
    typeof value.salt === 'string' &&
    typeof value.cost === 'number' &&
    typeof value.keyLength === 'number' &&
    typeof value.keyPrefix === 'string' &&
    (value.data === undefined || isObject(value.data))
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
