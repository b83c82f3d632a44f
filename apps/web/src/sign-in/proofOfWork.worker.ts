/// <reference lib="webworker" />

import type { ProofChallenge } from './proofOfWork';
import { solveProofPayload } from './proofPayload';

// Solves one challenge off the main thread, so the page stays responsive, and answers `{proof}` or `{error}`.
self.onmessage = async (event: MessageEvent<{ challenge: ProofChallenge }>) => {
  try {
    self.postMessage({ proof: await solveProofPayload(event.data.challenge) });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
