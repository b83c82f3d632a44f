import { DialError } from '@dial/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProofChallenge } from './proofOfWork';
import { startOtpWithProof } from './startOtpWithProof';

const CHALLENGE: ProofChallenge = {
  parameters: {
    algorithm: 'PBKDF2/SHA-256',
    nonce: '00'.repeat(16),
    salt: '11'.repeat(16),
    cost: 10,
    keyLength: 32,
    keyPrefix: 'ab'.repeat(16),
  },
  signature: 'cd'.repeat(32),
};
const STARTED = {
  ok: true,
  channel: 'sms',
  to: '+447400123456',
  resendAfterSeconds: 30,
  expiresInSeconds: 600,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const powRequired = (challenge: unknown = CHALLENGE) =>
  json({ error: { code: 'proof_of_work_required', message: 'Check first.' }, challenge }, 403);

/** Answers the queued responses in turn, and records the bodies sent. */
function stubFetch(...answers: Response[]) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_path: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no answer left');
      return answer;
    }),
  );
  return bodies;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('startOtpWithProof', () => {
  it('sends the code at once when the server asks for no proof', async () => {
    const bodies = stubFetch(json(STARTED));
    const solve = vi.fn<(challenge: ProofChallenge) => Promise<string>>();
    await expect(startOtpWithProof('sms', '+447400123456', { solve })).resolves.toEqual(STARTED);
    expect(bodies).toEqual([{ channel: 'sms', to: '+447400123456' }]);
    expect(solve).not.toHaveBeenCalled();
  });

  it('solves the challenge the server sends, says so, and asks again with the proof', async () => {
    const bodies = stubFetch(powRequired(), json(STARTED));
    const onChecking = vi.fn();
    const solve = vi.fn(async () => 'PROOF');
    await expect(startOtpWithProof('sms', '+447400123456', { solve, onChecking })).resolves.toEqual(STARTED);
    expect(solve).toHaveBeenCalledExactlyOnceWith(CHALLENGE);
    expect(onChecking).toHaveBeenCalledOnce();
    expect(bodies).toEqual([
      { channel: 'sms', to: '+447400123456' },
      { channel: 'sms', to: '+447400123456', proof: 'PROOF' },
    ]);
  });

  it('solves a second challenge when the first proof is refused (expired while waiting), then gives up', async () => {
    stubFetch(powRequired(), powRequired(), powRequired());
    const solve = vi.fn(async () => 'PROOF');
    const error = await startOtpWithProof('email', 'ada@example.com', { solve }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('proof_of_work_required');
    expect(solve).toHaveBeenCalledTimes(2);
  });

  it('passes any other error on without solving anything', async () => {
    stubFetch(json({ error: { code: 'too_many_requests', message: 'Wait.' } }, 429));
    const solve = vi.fn(async () => 'PROOF');
    const error = await startOtpWithProof('sms', '+447400123456', { solve }).catch(
      (caught: unknown) => caught,
    );
    expect((error as DialError).code).toBe('too_many_requests');
    expect(solve).not.toHaveBeenCalled();
  });

  it('passes on a proof_of_work_required that carries no usable challenge', async () => {
    stubFetch(powRequired({ parameters: 'nope' }));
    const solve = vi.fn(async () => 'PROOF');
    const error = await startOtpWithProof('sms', '+447400123456', { solve }).catch(
      (caught: unknown) => caught,
    );
    expect((error as DialError).code).toBe('proof_of_work_required');
    expect(solve).not.toHaveBeenCalled();
  });
});
