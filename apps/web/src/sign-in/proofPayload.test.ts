import { DialError } from '@dial/core';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey as pbkdf2InNode } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { proofChallengeOf } from './proofOfWork';
import { solveProofPayload } from './proofPayload';
import { solveProofOfWork } from './solveProofOfWork';

const SECRETS = { hmacSignatureSecret: 'signature secret', hmacKeySignatureSecret: 'key secret' };

/** A challenge as the server makes it (deterministic ALTCHA, PBKDF2), easy enough for a test. */
async function serverChallenge() {
  const { parameters, signature } = await createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: 50,
    counter: 25,
    deriveKey: pbkdf2InNode,
    data: { subject: 'abc' },
    expiresAt: Math.floor(Date.now() / 1000) + 300,
    ...SECRETS,
  });
  return { parameters, signature: signature ?? '' };
}

/** Checks a proof the way the server does. */
async function serverAccepts(proof: string): Promise<boolean> {
  const { challenge, solution } = JSON.parse(atob(proof));
  const result = await verifySolution({ challenge, solution, deriveKey: pbkdf2InNode, ...SECRETS });
  return result.verified;
}

describe('solveProofPayload', () => {
  it('solves with WebCrypto PBKDF2 into a payload the server accepts', async () => {
    const challenge = await serverChallenge();
    const proof = await solveProofPayload(challenge);
    expect(JSON.parse(atob(proof))).toMatchObject({ challenge, solution: { counter: 25 } });
    expect(await serverAccepts(proof)).toBe(true);
  });

  it('is solved on the main thread where there are no Web Workers', async () => {
    const proof = await solveProofOfWork(await serverChallenge());
    expect(await serverAccepts(proof)).toBe(true);
  });
});

describe('proofChallengeOf', () => {
  it('reads the challenge kept with a proof_of_work_required error, and nothing from other errors', async () => {
    const challenge = await serverChallenge();
    const body = { error: { code: 'proof_of_work_required', message: 'm' }, challenge };
    expect(proofChallengeOf(new DialError('proof_of_work_required', { cause: body }))).toEqual(challenge);
    expect(proofChallengeOf(new DialError('proof_of_work_required'))).toBeUndefined();
    expect(proofChallengeOf(new DialError('too_many_requests', { cause: body }))).toBeUndefined();
    expect(proofChallengeOf(new Error('x'))).toBeUndefined();
  });
});
