import { DialError } from '@dial/core';
import type { ProofChallenge } from './proofOfWork';

/**
 * Solves a proof-of-work challenge in a Web Worker (its code, with ALTCHA's solver, is fetched only now, the
 * first time the server asks for a proof) and returns the `proof` to send. Without workers it solves on the
 * main thread, which still yields between tries.
 *
 * @throws {DialError} `internal_error` when the challenge cannot be solved.
 */
export async function solveProofOfWork(challenge: ProofChallenge): Promise<string> {
  if (typeof Worker === 'undefined') {
    const { solveProofPayload } = await import('./proofPayload');
    return solveProofPayload(challenge);
  }
  const worker = new Worker(new URL('./proofOfWork.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<string>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<{ proof?: string; error?: string }>) => {
        if (typeof event.data.proof === 'string') resolve(event.data.proof);
        else reject(new DialError('internal_error', { details: `proof of work: ${event.data.error}` }));
      };
      worker.onerror = (event) => {
        reject(new DialError('internal_error', { details: `proof of work worker: ${event.message}` }));
      };
      worker.postMessage({ challenge });
    });
  } finally {
    worker.terminate();
  }
}
