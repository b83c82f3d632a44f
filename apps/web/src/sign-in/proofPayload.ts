import { DialError } from '@dial/core';
import { type DeriveKeyFunction, solveChallenge } from 'altcha-lib';
import { deriveKey as pbkdf2InBrowser } from 'altcha-lib/algorithms/web/pbkdf2';
import type { ProofChallenge } from './proofOfWork';

/** Past this the browser gives up: a challenge the server made takes seconds, not minutes. */
const SOLVE_TIMEOUT_MS = 120_000;

/**
 * Solves a proof-of-work challenge (ALTCHA: derive keys for counters from 0 until one matches) and returns
 * the `proof` for `otp/start`: base64 of `{challenge, solution}`. PBKDF2 runs in WebCrypto, natively.
 *
 * @param deriveKey - the key derivation; the browser's WebCrypto PBKDF2 unless a test gives another.
 * @throws {DialError} `internal_error` when it was not solved in time.
 */
export async function solveProofPayload(
  challenge: ProofChallenge,
  deriveKey: DeriveKeyFunction = pbkdf2InBrowser,
): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  if (solution === null)
    throw new DialError('internal_error', { details: 'proof of work not solved in time' });
  const json = JSON.stringify({ challenge, solution });
  // The payload is ASCII (hex, digits, the algorithm's name), so btoa takes it as is.
  return btoa(json);
}
