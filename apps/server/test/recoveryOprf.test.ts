import { randomBytes } from 'node:crypto';
import {
  blindRecoveryPassword,
  decodeShare,
  deriveRecoveryOprfKey,
  encodeShare,
  evaluateRecoveryOprf,
  finalizeRecoveryPassword,
  RECOVERY_OPRF_SUITE,
} from '@dial/core';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import { saveWallet } from '../src/wallet/walletStore.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

const PASSWORD = 'plum orchard lantern 42';
const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const OPRF_URL = '/api/wallet/recovery/oprf';

async function signIn(t: TestApp, phone = PHONE): Promise<{ token: string; userId: string }> {
  const { token, response } = await t.signIn('sms', phone);
  return { token, userId: response.json().user.id };
}

/** The browser's side of one evaluation: blind, ask the server, finalize. */
async function hardenThroughServer(t: TestApp, token: string, password = PASSWORD): Promise<Uint8Array> {
  const { blind, blindedElement } = blindRecoveryPassword(password);
  const response = await t.post(OPRF_URL, { blindedElement: encodeShare(blindedElement) }, { token });
  expect(response.statusCode).toBe(200);
  return finalizeRecoveryPassword(password, blind, decodeShare(response.json().evaluatedElement));
}

/** The user's OPRF key as the server derives it from its SHARE_ENCRYPTION_KEY. */
function serverKeyOf(t: TestApp, userId: string): Uint8Array {
  return deriveRecoveryOprfKey(deriveKey(t.config.shareEncryptionKey, 'dial/recovery-oprf'), userId);
}

/** What the same password gives under `key` (only the key's holder can compute this). */
function outputUnder(key: Uint8Array, password = PASSWORD): Uint8Array {
  const { blind, blindedElement } = blindRecoveryPassword(password);
  return finalizeRecoveryPassword(password, blind, evaluateRecoveryOprf(key, blindedElement));
}

describe.each(DIALECTS)('the recovery password OPRF on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it("evaluates the owner's blinded password under their key, derived from SHARE_ENCRYPTION_KEY", async () => {
    const t = await createTestApp(db());
    const { token, userId } = await signIn(t);
    const output = await hardenThroughServer(t, token);
    expect(output).toHaveLength(64);
    // Blinded anew each time, the same password gives the same output: a key can be derived from it.
    expect(await hardenThroughServer(t, token)).toEqual(output);
    expect(await hardenThroughServer(t, token, `${PASSWORD}!`)).not.toEqual(output);
    // It is the OPRF under the key the server derives for this user, nothing else.
    expect(outputUnder(serverKeyOf(t, userId))).toEqual(output);
  });

  it('gives different users different keys: the same element evaluates differently', async () => {
    const t = await createTestApp(db());
    const first = await signIn(t);
    const second = await signIn(t, '+447400123457');
    const { blindedElement } = blindRecoveryPassword(PASSWORD);
    const body = { blindedElement: encodeShare(blindedElement) };
    const forFirst = (await t.post(OPRF_URL, body, { token: first.token })).json().evaluatedElement;
    const forSecond = (await t.post(OPRF_URL, body, { token: second.token })).json().evaluatedElement;
    expect(forFirst).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(forSecond).not.toBe(forFirst);
    expect((await t.post(OPRF_URL, body, { token: first.token })).json().evaluatedElement).toBe(forFirst);
    expect(await hardenThroughServer(t, second.token)).not.toEqual(await hardenThroughServer(t, first.token));
  });

  it('gives the same output on every server sharing SHARE_ENCRYPTION_KEY, another on a server with another key', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    const one = await createTestApp(db(), { config: { shareEncryptionKey } });
    const two = await createTestApp(db(), { config: { shareEncryptionKey } });
    const other = await createTestApp(db());
    const { token } = await signIn(one);
    const output = await hardenThroughServer(one, token);
    expect(await hardenThroughServer(two, token)).toEqual(output);
    expect(await hardenThroughServer(other, token)).not.toEqual(output);
  });

  it('refuses a signed-out caller with 401 and another origin with 403, counting nothing', async () => {
    const t = await createTestApp(db());
    const { token } = await signIn(t);
    const body = { blindedElement: encodeShare(blindRecoveryPassword(PASSWORD).blindedElement) };
    expectError(await t.post(OPRF_URL, body), 401, 'unauthorized');
    expectError(
      await t.post(OPRF_URL, body, { token, headers: { origin: 'https://evil.example' } }),
      403,
      'forbidden_origin',
    );
    // Neither used the owner's budget.
    for (let i = 0; i < RATE_LIMITS.walletRecoveryPerUser.max; i++) {
      expect((await t.post(OPRF_URL, body, { token })).statusCode).toBe(200);
    }
  });

  it('counts every evaluation against the recovery limit shared with reported failures, and no fetch of the record', async () => {
    const t = await createTestApp(db());
    const { token } = await signIn(t);
    const { max } = RATE_LIMITS.walletRecoveryPerUser;
    const body = () => ({ blindedElement: encodeShare(blindRecoveryPassword(PASSWORD).blindedElement) });
    // Half the budget on guesses, half on reported failures (wrong passwords of a record older than the
    // OPRF); the fetches of the recovery share in between count nothing.
    for (let i = 0; i < max / 2; i++) {
      expectError(await t.get('/api/wallet/recovery', { token }), 404, 'recovery_not_set_up');
      expect((await t.post(OPRF_URL, body(), { token })).statusCode).toBe(200);
      expect((await t.post('/api/wallet/recovery/failed', {}, { token })).statusCode).toBe(204);
    }
    t.clock.advance(600_000);
    const refused = await t.post(OPRF_URL, body(), { token });
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3000');
    expectError(await t.post('/api/wallet/recovery/failed', {}, { token }), 429, 'too_many_requests');
    // The next hour, guesses are possible again.
    t.clock.advance(3_000_000);
    expect((await t.post(OPRF_URL, body(), { token })).statusCode).toBe(200);
  });

  it("says how many of the user's tries are left, counted per user: a new session or browser does not reset it", async () => {
    const t = await createTestApp(db());
    const { max } = RATE_LIMITS.walletRecoveryPerUser;
    const first = await signIn(t);
    const other = await signIn(t, '+447400123457');
    const body = () => ({ blindedElement: encodeShare(blindRecoveryPassword(PASSWORD).blindedElement) });
    const evaluate = async (token: string) => {
      const response = await t.post(OPRF_URL, body(), { token });
      expect(response.statusCode).toBe(200);
      return response.json() as { triesLeft: number; retryAfterSeconds?: number };
    };
    const triesLeft = async (token: string) => (await evaluate(token)).triesLeft;
    expect(await evaluate(first.token)).toEqual({ evaluatedElement: expect.any(String), triesLeft: max - 1 });
    // A reported failure spends the same budget.
    expect((await t.post('/api/wallet/recovery/failed', {}, { token: first.token })).statusCode).toBe(204);
    expect(await triesLeft(first.token)).toBe(max - 3);
    // The attacker signs in again (a new session, as from a fresh browser): the count goes on.
    const again = await signIn(t);
    expect(again.userId).toBe(first.userId);
    expect(again.token).not.toBe(first.token);
    expect(await triesLeft(again.token)).toBe(max - 4);
    // Another user's budget is their own.
    expect(await triesLeft(other.token)).toBe(max - 1);
    for (let left = max - 5; left > 0; left--) expect(await triesLeft(again.token)).toBe(left);
    // The last one says how long until the next, as the next one's 429 says it.
    t.clock.advance(125_500);
    const last = await evaluate(again.token);
    expect(last).toEqual({ evaluatedElement: expect.any(String), triesLeft: 0, retryAfterSeconds: 3475 });
    const refused = await t.post(OPRF_URL, body(), { token: first.token });
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3475');
  });

  it('is refused after the reported failures used the hour, for this user only', async () => {
    const t = await createTestApp(db());
    const owner = await signIn(t);
    const other = await signIn(t, '+447400123457');
    for (let i = 0; i < RATE_LIMITS.walletRecoveryPerUser.max; i++) {
      await t.post('/api/wallet/recovery/failed', {}, { token: owner.token });
    }
    const body = { blindedElement: encodeShare(blindRecoveryPassword(PASSWORD).blindedElement) };
    expectError(await t.post(OPRF_URL, body, { token: owner.token }), 429, 'too_many_requests');
    expect((await t.post(OPRF_URL, body, { token: other.token })).statusCode).toBe(200);
  });

  it.each([
    ['the identity element', encodeShare(new Uint8Array(32))],
    ['a non-canonical encoding', encodeShare(Uint8Array.from([0xed, ...new Array(30).fill(0xff), 0x7f]))],
    ['a negative field element', encodeShare(Uint8Array.from([1, ...new Array(31).fill(0)]))],
    ['bytes that are no point', encodeShare(new Uint8Array(32).fill(0xff))],
    ['31 bytes', encodeShare(new Uint8Array(31).fill(2))],
    ['33 bytes', encodeShare(new Uint8Array(33).fill(2))],
    ['base64url', 'A-_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='],
    ['a number', 7],
    ['nothing', undefined],
  ])('refuses %s with 400 invalid_data', async (_label, blindedElement) => {
    const t = await createTestApp(db());
    const { token } = await signIn(t);
    expectError(await t.post(OPRF_URL, { blindedElement }, { token }), 400, 'invalid_data');
  });

  it('refuses a body with another property with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const { token } = await signIn(t);
    const blindedElement = encodeShare(blindRecoveryPassword(PASSWORD).blindedElement);
    expectError(await t.post(OPRF_URL, { blindedElement, userId: 'x' }, { token }), 400, 'invalid_data');
  });

  it('returns a stored KDF record with its OPRF marker, so the browser knows to ask for an evaluation', async () => {
    const t = await createTestApp(db());
    const { token, userId } = await signIn(t);
    await saveWallet(
      db(),
      deriveKey(t.config.shareEncryptionKey, 'dial/auth-share'),
      { userId, address: ADDRESS, authShare: new Uint8Array(33).fill(1) },
      t.clock.now(),
    );
    const kdf = { name: 'scrypt', N: 131_072, r: 8, p: 1, salt: randomBytes(16).toString('base64') };
    const ciphertext = randomBytes(61).toString('base64');
    await db()
      .insertInto('recovery_shares')
      .values({
        user_id: userId,
        generation: 1,
        method: 'password',
        ciphertext,
        kdf: JSON.stringify({ ...kdf, oprf: RECOVERY_OPRF_SUITE }),
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    const fetched = await t.get('/api/wallet/recovery', { token });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({
      generation: 1,
      method: 'password',
      ciphertext,
      kdf: { ...kdf, oprf: 'ristretto255-sha512' },
      // The recovery pair's other half, with the wallet it opens.
      address: ADDRESS,
      authShare: encodeShare(new Uint8Array(33).fill(1)),
    });
  });
});

describe.each(DIALECTS)('a recovery password try on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const { max } = RATE_LIMITS.walletRecoveryPerUser;

  /** A signed-in owner whose wallet holds a password record hardened by the OPRF, as setup stores it. */
  async function ownerWithHardenedRecord(t: TestApp): Promise<{ token: string; ciphertext: string }> {
    const { token, userId } = await signIn(t);
    await saveWallet(
      db(),
      deriveKey(t.config.shareEncryptionKey, 'dial/auth-share'),
      { userId, address: ADDRESS, authShare: new Uint8Array(33).fill(1) },
      t.clock.now(),
    );
    const ciphertext = randomBytes(61).toString('base64');
    const kdf = { name: 'scrypt', N: 131_072, r: 8, p: 1, salt: randomBytes(16).toString('base64') };
    await db()
      .insertInto('recovery_shares')
      .values({
        user_id: userId,
        generation: 1,
        method: 'password',
        ciphertext,
        kdf: JSON.stringify({ ...kdf, oprf: RECOVERY_OPRF_SUITE }),
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    return { token, ciphertext };
  }

  /**
   * One password try as the web app makes it (apps/web/src/keys/recoverToRotation.ts): the wallet, the
   * recovery record, then one evaluation of the blinded password; when the record does not open with it,
   * nothing more (the evaluation was the count). Returns the evaluation's answer.
   */
  async function tryPassword(t: TestApp, token: string, password: string) {
    expect((await t.get('/api/wallet', { token })).statusCode).toBe(200);
    const record = await t.get('/api/wallet/recovery', { token });
    expect(record.statusCode).toBe(200);
    expect(record.json().kdf.oprf).toBe(RECOVERY_OPRF_SUITE);
    const { blindedElement } = blindRecoveryPassword(password);
    return t.post(OPRF_URL, { blindedElement: encodeShare(blindedElement) }, { token });
  }

  it("costs exactly one of the hour's tries when the password is wrong, down to the wait", async () => {
    const t = await createTestApp(db());
    const { token } = await ownerWithHardenedRecord(t);
    for (let attempt = 1; attempt <= max; attempt++) {
      const answer = await tryPassword(t, token, `${PASSWORD} ${attempt}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().triesLeft).toBe(max - attempt);
    }
    // The tenth said there was none left; the eleventh is refused before any evaluation, with the wait.
    const refused = await tryPassword(t, token, PASSWORD);
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3600');
  });

  it('still needs one counted evaluation per guess: fetching the record as often as one likes adds none', async () => {
    const t = await createTestApp(db());
    const { token, ciphertext } = await ownerWithHardenedRecord(t);
    const evaluations: string[] = [];
    for (let guess = 1; guess <= max + 3; guess++) {
      // A thief with the session fetches the ciphertext again and again: it is given, and counts nothing…
      for (let fetch = 0; fetch < 3; fetch++) {
        const record = await t.get('/api/wallet/recovery', { token });
        expect(record.statusCode).toBe(200);
        expect(record.json().ciphertext).toBe(ciphertext);
      }
      // …but checking a guess against it takes the server's evaluation, and those stop at the limit.
      const { blindedElement } = blindRecoveryPassword(`guess ${guess}`);
      const answer = await t.post(OPRF_URL, { blindedElement: encodeShare(blindedElement) }, { token });
      evaluations.push(
        answer.statusCode === 200 ? `left ${answer.json().triesLeft}` : `${answer.statusCode}`,
      );
    }
    expect(evaluations).toEqual([
      ...Array.from({ length: max }, (_, at) => `left ${max - 1 - at}`),
      '429',
      '429',
      '429',
    ]);
  });
});
