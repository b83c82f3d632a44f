import type { Challenge } from 'altcha-lib';
import { isRouteError } from '../api/client';

/** The challenge a `403 proof_of_work_required` answer carries (ALTCHA v2: signed parameters). */
export type ProofChallenge = Required<Pick<Challenge, 'parameters' | 'signature'>>;

/**
 * The challenge of a `proof_of_work_required` error from the API (the client keeps the answer's body as the
 * error's `cause`); `undefined` for any other error.
 */
export function proofChallengeOf(error: unknown): ProofChallenge | undefined {
  if (!isRouteError('otpStart', error, 'proof_of_work_required')) return undefined;
  const body = error.cause;
  if (typeof body !== 'object' || body === null || !('challenge' in body)) return undefined;
  const { challenge } = body as { challenge: unknown };
  if (typeof challenge !== 'object' || challenge === null) return undefined;
  const { parameters, signature } = challenge as { parameters?: unknown; signature?: unknown };
  if (typeof parameters !== 'object' || parameters === null || typeof signature !== 'string')
    return undefined;
  return { parameters: parameters as ProofChallenge['parameters'], signature };
}
