import { startOtp } from '../api/endpoints';
import type { OtpChannel, OtpStarted } from '../api/types';
import { type ProofChallenge, proofChallengeOf } from './proofOfWork';

/** How many challenges one send solves before giving up (a solved one can expire while the page waits). */
const MAX_PROOFS = 2;

export interface StartOtpOptions {
  /** Called when the server asks this browser for a proof of work, before solving it. */
  onChecking?: () => void;
  /** Solves a challenge into a `proof`; a Web Worker with ALTCHA's solver unless a test gives another. */
  solve?: (challenge: ProofChallenge) => Promise<string>;
}

/**
 * Asks for a one-time code like {@link startOtp}; when the server answers that this browser must first do a
 * proof of work (many codes were asked for the number from other browsers), it solves the challenge and asks
 * again with the proof. The solver is loaded only then.
 *
 * @throws the API's error, as `startOtp` does (after {@link MAX_PROOFS} refused proofs, the last refusal).
 */
export async function startOtpWithProof(
  channel: OtpChannel,
  to: string,
  options: StartOtpOptions = {},
): Promise<OtpStarted> {
  const solve =
    options.solve ?? (async (challenge) => (await import('./solveProofOfWork')).solveProofOfWork(challenge));
  let proof: string | undefined;
  for (let proofs = 0; ; proofs++) {
    try {
      return await startOtp(channel, to, proof);
    } catch (error) {
      const challenge = proofChallengeOf(error);
      if (challenge === undefined || proofs >= MAX_PROOFS) throw error;
      options.onChecking?.();
      proof = await solve(challenge);
    }
  }
}
