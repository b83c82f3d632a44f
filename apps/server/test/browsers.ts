import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { LightMyRequestResponse } from 'fastify';
import type { ProofChallenge } from '../src/auth/proofOfWork.js';
import { DEFAULT_OTP_POLICY, type OtpPolicy } from '../src/config/otpPolicy.js';

/** A new browser: a `dial_device` token as the server would set it (32 random bytes, base64url). */
export function newDevice(): string {
  return randomBytes(32).toString('base64url');
}

/** The default policy with a proof of work that Node solves in milliseconds. */
export const FAST_PROOF_POLICY: OtpPolicy = {
  ...DEFAULT_OTP_POLICY,
  proofOfWork: { cost: 10, counterMin: 1, counterMax: 20, ttlSeconds: 300 },
};

/** The challenge of a `403 proof_of_work_required` answer, or throws. */
export function challengeOf(response: LightMyRequestResponse): ProofChallenge {
  const body = response.json();
  if (response.statusCode !== 403 || body.error?.code !== 'proof_of_work_required') {
    throw new Error(`expected 403 proof_of_work_required, got ${response.statusCode}: ${response.body}`);
  }
  return body.challenge as ProofChallenge;
}

/** Solves a challenge as the browser does (counters from 0) and returns the `proof` to send. */
export async function solveProof(challenge: ProofChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('the challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution }), 'utf8').toString('base64');
}
