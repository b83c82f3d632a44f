import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { challengeOf, FAST_PROOF_POLICY, newDevice, solveProof } from './browsers.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SMS = { channel: 'sms', to: PHONE } as const;

/** A 6-digit code that is not `code`. */
function wrongCode(code: string, offset = 1): string {
  return String((Number(code) + offset) % 1_000_000).padStart(6, '0');
}

/** A random 6-digit guess. */
function guess(): string {
  return String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0');
}

let nextIp = 0;
/** A client address never used before in this file: the attacker has many, so per-IP limits never stop it. */
function freshIp(): string {
  nextIp += 1;
  return `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp & 255}`;
}

/**
 * The attacker asks for a code to the victim's number from a new browser and a new address, solving the
 * proof of work when the server asks for one (as a determined attacker with CPU to spare would).
 *
 * @returns the final answer, and the browser the code (if any) is bound to.
 */
async function attackerStart(
  t: TestApp,
): Promise<{ response: LightMyRequestResponse; device: string; ip: string }> {
  const device = newDevice();
  const ip = freshIp();
  let response = await t.post('/api/auth/otp/start', SMS, { device, ip });
  if (response.statusCode === 403) {
    const proof = await solveProof(challengeOf(response));
    response = await t.post('/api/auth/otp/start', { ...SMS, proof }, { device, ip });
  }
  return { response, device, ip };
}

/** The owner signs up on `device` (which becomes a browser their account knows). */
async function ownerSignsUp(t: TestApp, device: string): Promise<void> {
  const code = await t.requestCode('sms', PHONE, { device });
  const verified = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device });
  expect(verified.statusCode).toBe(200);
  expect(verified.json().isNewUser).toBe(true);
}

describe.each(DIALECTS)('a flood against one number on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const label = dialectLabel(dialect);
  const app = () => createTestApp(db(), { config: { otp: FAST_PROOF_POLICY } });

  it(`lets the owner's known browser get a code and sign in after a flood spent every shared budget (${label})`, async () => {
    const t = await app();
    const owner = newDevice();
    await ownerSignsUp(t, owner);
    t.clock.advance(MINUTE);

    // The attacker spends the number's codes for unknown browsers to the hard cap (the owner's sign-up took
    // one of the hour's 10), with proofs of work…
    for (let i = 0; i < 9; i++) {
      const { response, device, ip } = await attackerStart(t);
      expect(response.statusCode).toBe(200);
      // …and spends each code's tries with wrong guesses.
      for (let attempt = 0; attempt < 5; attempt++) {
        await t.post('/api/auth/otp/verify', { ...SMS, code: guess() }, { device, ip });
      }
    }
    expect((await attackerStart(t)).response.statusCode).toBe(429);
    // Wrong guesses from browsers without a code, from many addresses.
    for (let i = 0; i < 12; i++) {
      await t.post('/api/auth/otp/verify', { ...SMS, code: guess() }, { device: newDevice(), ip: freshIp() });
    }

    const sentBefore = t.transport.sent.length;
    const started = await t.post('/api/auth/otp/start', SMS, { device: owner });
    expect(started.statusCode).toBe(200);
    expect(t.transport.sent).toHaveLength(sentBefore + 1);
    const code = t.transport.lastCode(PHONE);
    const verified = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device: owner });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().isNewUser).toBe(false);
  });

  it(`lets the owner sign in on a new browser by solving the proof of work after a flood (${label})`, async () => {
    const t = await app();
    await ownerSignsUp(t, newDevice());
    t.clock.advance(MINUTE);

    // Before: 5 codes an hour and 10 checks in 10 minutes per number, whoever asked. Both are spent here.
    for (let i = 0; i < 5; i++) expect((await attackerStart(t)).response.statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      await t.post('/api/auth/otp/verify', { ...SMS, code: guess() }, { device: newDevice(), ip: freshIp() });
    }

    const laptop = newDevice();
    const asked = await t.post('/api/auth/otp/start', SMS, { device: laptop });
    const proof = await solveProof(challengeOf(asked));
    const started = await t.post('/api/auth/otp/start', { ...SMS, proof }, { device: laptop });
    expect(started.statusCode).toBe(200);
    const code = t.transport.lastCode(PHONE);
    const verified = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device: laptop });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().isNewUser).toBe(false);
    // The owner's phone is told about the sign-in from a new browser.
    expect(t.transport.sent.at(-1)?.text).toMatch(
      /^Dial: someone signed in to your account from a new browser\./,
    );
  });

  it(`keeps the owner's pending code whole: other browsers' codes and wrong guesses neither replace nor burn it (${label})`, async () => {
    const t = await app();
    const owner = newDevice();
    const code = await t.requestCode('sms', PHONE, { device: owner });
    t.clock.advance(31_000);

    // The attacker asks for codes of its own (one from a browser without any cookie)…
    const attacker = newDevice();
    await t.requestCode('sms', PHONE, { device: attacker, ip: freshIp() });
    await t.requestCode('sms', PHONE, { device: null, ip: freshIp() });
    // …and spends tries with wrong guesses, many of them the owner's code give or take one.
    for (let attempt = 1; attempt <= 6; attempt++) {
      await t.post('/api/auth/otp/verify', { ...SMS, code: wrongCode(code, attempt) }, { device: attacker });
      await t.post(
        '/api/auth/otp/verify',
        { ...SMS, code: wrongCode(code, attempt) },
        { device: newDevice(), ip: freshIp() },
      );
    }
    // The owner's code, from another browser, is not the attacker's to use either.
    const stolen = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device: attacker });
    expect(stolen.json().error.code).toBe('code_attempts_exceeded');

    const verified = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device: owner });
    expect(verified.statusCode).toBe(200);
  });

  it(`still stops SMS pumping: 10 codes an hour and 30 a day to browsers the number has not signed in from, proofs or not (${label})`, async () => {
    const t = await app();
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < 10; i++) expect((await attackerStart(t)).response.statusCode).toBe(200);
      const refused = (await attackerStart(t)).response;
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('too_many_requests');
      t.clock.advance(HOUR);
    }
    // The fourth hour of the same day: the day's 30 are spent.
    const nextHour = (await attackerStart(t)).response;
    expect(nextHour.statusCode).toBe(429);
    expect(t.transport.sent).toHaveLength(30);
    // The per-address limit stays too: 20 starts an hour from one address.
    const ip = freshIp();
    const answers = [];
    for (let i = 0; i < 21; i++) {
      answers.push(
        (
          await t.post(
            '/api/auth/otp/start',
            { channel: 'sms', to: `+4474001234${String(i).padStart(2, '0')}` },
            { ip, device: newDevice() },
          )
        ).statusCode,
      );
    }
    expect(answers.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(answers[20]).toBe(429);
  });

  it(`bounds brute force: 5 tries a code and 10 codes an hour, so at most 50 guesses an hour (${label})`, async () => {
    const t = await app();
    let checked = 0;
    for (let i = 0; i < 10; i++) {
      const { response, device, ip } = await attackerStart(t);
      expect(response.statusCode).toBe(200);
      const code = t.transport.lastCode(PHONE);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await t.post(
          '/api/auth/otp/verify',
          { ...SMS, code: wrongCode(code, attempt) },
          { device, ip },
        );
        expect(answer.json().error.code).toBe(attempt < 5 ? 'invalid_code' : 'code_attempts_exceeded');
        checked += 1;
      }
      // A dead code stays dead, even for the right guess.
      const right = await t.post('/api/auth/otp/verify', { ...SMS, code }, { device, ip });
      expect(right.json().error.code).toBe('code_attempts_exceeded');
    }
    expect(checked).toBe(50);
    expect((await attackerStart(t)).response.statusCode).toBe(429);
    expect(await db().selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it(`gives a browser the number knows 5 codes an hour of its own, without a proof of work (${label})`, async () => {
    const t = await app();
    const owner = newDevice();
    await ownerSignsUp(t, owner);
    for (let i = 0; i < 3; i++) await attackerStart(t);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(31_000);
      expect((await t.post('/api/auth/otp/start', SMS, { device: owner })).statusCode).toBe(200);
    }
    t.clock.advance(31_000);
    const sixth = await t.post('/api/auth/otp/start', SMS, { device: owner });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('too_many_requests');
  });
});

describe.each(DIALECTS)('proofs of work on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const shareEncryptionKey = new Uint8Array(randomBytes(32));
  const app = () => createTestApp(db(), { config: { otp: FAST_PROOF_POLICY, shareEncryptionKey } });

  /** Spends the number's free codes, then returns a solved proof for a new browser. */
  async function solvedProof(t: TestApp, to: string = PHONE): Promise<string> {
    for (let i = 0; i < 3; i++) {
      await t.requestCode('sms', to, { device: newDevice(), ip: freshIp() });
    }
    const asked = await t.post('/api/auth/otp/start', { channel: 'sms', to }, { device: newDevice() });
    return solveProof(challengeOf(asked));
  }

  it('accepts a solution once: replayed from another browser, or on another server, it asks for a new one', async () => {
    const t = await app();
    const second = await app();
    const proof = await solvedProof(t);
    expect((await t.post('/api/auth/otp/start', { ...SMS, proof }, { device: newDevice() })).statusCode).toBe(
      200,
    );
    for (const server of [t, second]) {
      const replayed = await server.post(
        '/api/auth/otp/start',
        { ...SMS, proof },
        { device: newDevice(), ip: freshIp() },
      );
      // A fresh challenge comes with the refusal.
      expect(challengeOf(replayed).signature).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(t.transport.sent.length + second.transport.sent.length).toBe(4);
  });

  it('accepts a solution once when two servers receive it at the same moment', async () => {
    const t = await app();
    const second = await app();
    const proof = await solvedProof(t);
    const answers = await Promise.all(
      [t, second].map((server) =>
        server.post('/api/auth/otp/start', { ...SMS, proof }, { device: newDevice(), ip: freshIp() }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
  });

  it('refuses a solution after its challenge expired (5 minutes)', async () => {
    const t = await app();
    const proof = await solvedProof(t);
    t.clock.advance(300_000);
    challengeOf(await t.post('/api/auth/otp/start', { ...SMS, proof }, { device: newDevice() }));
  });

  it('refuses a solution for another number', async () => {
    const t = await app();
    const proof = await solvedProof(t, '+447400123457');
    for (let i = 0; i < 3; i++) await t.requestCode('sms', PHONE, { device: newDevice(), ip: freshIp() });
    challengeOf(await t.post('/api/auth/otp/start', { ...SMS, proof }, { device: newDevice() }));
  });

  it('refuses a challenge the browser eased (a lower cost) or a made-up solution', async () => {
    const t = await app();
    const proof = await solvedProof(t);
    const payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
    const eased = {
      ...payload,
      challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, cost: 1 } },
    };
    const madeUp = { ...payload, solution: { counter: 0, derivedKey: 'ab'.repeat(32) } };
    for (const forged of [eased, madeUp]) {
      const encoded = Buffer.from(JSON.stringify(forged), 'utf8').toString('base64');
      challengeOf(await t.post('/api/auth/otp/start', { ...SMS, proof: encoded }, { device: newDevice() }));
    }
    // The genuine solution was not used up by the forgeries.
    expect((await t.post('/api/auth/otp/start', { ...SMS, proof }, { device: newDevice() })).statusCode).toBe(
      200,
    );
  });

  it('refuses a proof that is not an ALTCHA payload with 400 invalid_data', async () => {
    const t = await app();
    for (const proof of [
      'not base64 json!',
      Buffer.from('{"challenge":1}').toString('base64'),
      'x'.repeat(5000),
    ]) {
      const response = await t.post('/api/auth/otp/start', { ...SMS, proof });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_data');
    }
    expect(t.transport.sent).toHaveLength(0);
  });
});
