import { randomBytes } from 'node:crypto';
import { accountChangeTarget, encodeShare, SHARE_LENGTH } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { REAUTH_VALID_SECONDS } from '../src/auth/reauthentication.js';
import { challengeOf, FAST_PROOF_POLICY, newDevice, solveProof } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import { accountProof, registerWallet, signedRotation, type TestWallet, testWallet } from './walletProof.js';

const WALLET = testWallet(1);
const ADDRESS = WALLET.address;
const EMAIL = 'ada@example.com';

async function userWithWallet(t: TestApp, channel: 'sms' | 'email' = 'sms', to = PHONE) {
  const { token } = await t.signIn(channel, to);
  const share = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
  expect((await registerWallet(t, token, { wallet: WALLET, authShare: share })).response.statusCode).toBe(
    201,
  );
  return { token, share };
}

type Proof = Awaited<ReturnType<typeof accountProof>>;

/** The key's proof of an export (`export-key`, the wallet's address), signed by `signer` over this session's challenge. */
function exportProof(t: TestApp, token: string, signer: TestWallet = WALLET): Promise<Proof> {
  return accountProof(t, token, signer, {
    action: 'export-key',
    target: accountChangeTarget({ action: 'export-key', address: ADDRESS }),
  });
}

/** Asks for the export as the web app does: `POST /api/wallet/export` with the key's proof. */
async function exportKey(t: TestApp, token: string, proof?: Proof) {
  return t.post('/api/wallet/export', { proof: proof ?? (await exportProof(t, token)) }, { token });
}

/** A proof of the right shape that no key signed: for answers given before the proof is looked at. */
const MADE_UP_PROOF = { challenge: 'a'.repeat(43), address: ADDRESS, signature: `0x${'1'.repeat(130)}` };

/** Asks for a re-authentication code and returns it (the latest message to `to`). */
async function startReauth(t: TestApp, token: string, to = PHONE): Promise<string> {
  const sentBefore = t.transport.sent.length;
  const started = await t.post('/api/auth/reauth/start', {}, { token });
  expect(started.statusCode).toBe(200);
  expect(t.transport.sent).toHaveLength(sentBefore + 1);
  return t.transport.lastCode(to);
}

describe.each(DIALECTS)('re-authentication and export on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('refuses export with 403 reauthentication_required before re-authentication, even with the key’s proof', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    expectError(await exportKey(t, token), 403, 'reauthentication_required');
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([]);
  });

  it('sends a code to the user’s phone, and after verify opens export for exactly 5 minutes', async () => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    t.clock.advance(60_000);
    const started = await t.post('/api/auth/reauth/start', {}, { token });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({
      ok: true,
      channel: 'sms',
      resendAfterSeconds: 30,
      expiresInSeconds: 600,
    });
    const message = t.transport.sent.at(-1);
    expect(message).toMatchObject({ channel: 'sms', to: PHONE });
    // Worded as a confirmation, not a sign-in: the owner notices a request they did not make.
    expect(message?.text).toMatch(/^Your Dial confirmation code is \d{6}\. Someone asked to confirm/);
    const verified = await t.post('/api/auth/reauth/verify', { code: message?.code }, { token });
    expect(verified.statusCode).toBe(200);
    const until = new Date(t.clock.now().getTime() + REAUTH_VALID_SECONDS * 1000).toISOString();
    expect(verified.json()).toEqual({ reauthenticatedUntil: until });

    const exported = await exportKey(t, token);
    expect(exported.statusCode).toBe(200);
    // A record of the export, not a share: the browser rebuilt the key from its own device's shares.
    expect(exported.json()).toEqual({ address: ADDRESS, generation: 1 });
    expect(exported.body).not.toContain(share);
    t.clock.advance(REAUTH_VALID_SECONDS * 1000 - 1);
    expect((await exportKey(t, token)).statusCode).toBe(200);
    t.clock.advance(1);
    // A fresh proof of the key does not stand in for the code.
    expectError(await exportKey(t, token), 403, 'reauthentication_required');
  });

  it('sends the code by e-mail to a user without a phone', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t, 'email', EMAIL);
    t.clock.advance(60_000);
    const started = await t.post('/api/auth/reauth/start', {}, { token });
    expect(started.json()).toMatchObject({ ok: true, channel: 'email' });
    const code = t.transport.lastCode(EMAIL);
    expect(t.transport.sent.at(-1)?.subject).toBe(`Your Dial confirmation code: ${code}`);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    expect((await exportKey(t, token)).statusCode).toBe(200);
  });

  it('refuses export without the key’s own proof of it, re-authenticated or not, and records nothing', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const other = await t.signIn('email', EMAIL);
    expect((await registerWallet(t, other.token, { wallet: testWallet(2) })).response.statusCode).toBe(201);
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    const sentBefore = t.transport.sent.length;

    // A fresh code alone (a SIM swap) is not enough: the body must carry the proof.
    expectError(await t.post('/api/wallet/export', {}, { token }), 400, 'invalid_data');
    // Signed by another key, the attacker's own: not this account's key.
    expectError(
      await exportKey(t, token, await exportProof(t, token, testWallet(3))),
      403,
      'wallet_proof_invalid',
    );
    // The key's proof of another change.
    const forOther = await accountProof(t, token, WALLET, {
      action: 'end-sessions',
      target: accountChangeTarget({ action: 'end-sessions', id: 'all-others' }),
    });
    expectError(await exportKey(t, token, forOther), 403, 'wallet_proof_invalid');
    // The proof of another session (of another account) is not this session's to use.
    expectError(
      await exportKey(t, token, await exportProof(t, other.token, testWallet(2))),
      400,
      'wallet_proof_expired',
    );
    // A proof is used once.
    const proof = await exportProof(t, token);
    expect((await exportKey(t, token, proof)).statusCode).toBe(200);
    expectError(await exportKey(t, token, proof), 400, 'wallet_proof_expired');

    const exports = await db()
      .selectFrom('account_events')
      .select('kind')
      .where('kind', '=', 'key-exported')
      .execute();
    expect(exports).toHaveLength(1);
    expect(t.transport.sent.slice(sentBefore).map((message) => message.subject)).toEqual([
      "Dial: your wallet's private key was exported",
    ]);
  });

  it('answers a wrong code with 400 invalid_code and keeps export closed', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    const wrong = code === '000000' ? '000001' : '000000';
    expectError(await t.post('/api/auth/reauth/verify', { code: wrong }, { token }), 400, 'invalid_code');
    expectError(await exportKey(t, token), 403, 'reauthentication_required');
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
  });

  it('answers verify without a code sent with 400 code_expired, and a used code the same', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    expectError(await t.post('/api/auth/reauth/verify', { code: '123456' }, { token }), 400, 'code_expired');
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    expectError(await t.post('/api/auth/reauth/verify', { code }, { token }), 400, 'code_expired');
  });

  it('keeps re-authentication codes and sign-in codes apart', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    t.clock.advance(60_000);
    const reauthCode = await startReauth(t, token);
    // A re-authentication code does not sign in…
    const signIn = await t.post('/api/auth/otp/verify', { channel: 'sms', to: PHONE, code: reauthCode });
    expectError(signIn, 400, 'code_expired');
    // …and a sign-in code does not re-authenticate.
    const signInCode = await t.requestCode('sms', PHONE);
    if (signInCode !== reauthCode) {
      expectError(
        await t.post('/api/auth/reauth/verify', { code: signInCode }, { token }),
        400,
        'invalid_code',
      );
    }
    expectError(await exportKey(t, token), 403, 'reauthentication_required');
  });

  it('does not let an anonymous client probe, burn or replace an e-mail user’s pending re-authentication code', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    t.clock.advance(60_000);
    const code = await startReauth(t, token, EMAIL);
    // Re-authentication codes used to be kept as the sign-in code of `reauth:<address>`, which otp/start and
    // otp/verify accepted from anyone as an e-mail address.
    const prefixed = `reauth:${EMAIL}`;
    const anonymous = { device: newDevice(), ip: '203.0.113.66' };

    // Probe: a wrong code must not answer invalid_code ("a code is pending"), and five of them must not
    // kill the owner's code (burn).
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = String((Number(code) + attempt) % 1_000_000).padStart(6, '0');
      const probed = await t.post(
        '/api/auth/otp/verify',
        { channel: 'email', to: prefixed, code: wrong },
        anonymous,
      );
      expect(probed.statusCode).toBe(400);
      expect(['invalid_email', 'code_expired']).toContain(probed.json().error.code);
    }
    // Replace: a sign-in code asked for the prefixed address must not take the owner's code's place.
    const replaced = await t.post('/api/auth/otp/start', { channel: 'email', to: prefixed }, anonymous);
    expect([200, 400]).toContain(replaced.statusCode);
    // The right code does not sign anyone in either.
    const stolen = await t.post('/api/auth/otp/verify', { channel: 'email', to: prefixed, code }, anonymous);
    expect(stolen.statusCode).toBe(400);
    expect(await db().selectFrom('identities').select('value').execute()).toEqual([{ value: EMAIL }]);

    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
  });

  it('does not let an anonymous client reach a phone user’s re-authentication code either', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    const anonymous = { device: newDevice(), ip: '203.0.113.67' };
    for (const to of [`reauth:${PHONE}`, `reauth:+44 7400 123456`]) {
      expectError(
        await t.post('/api/auth/otp/start', { channel: 'sms', to }, anonymous),
        400,
        'invalid_phone',
      );
      expectError(
        await t.post('/api/auth/otp/verify', { channel: 'sms', to, code }, anonymous),
        400,
        'invalid_phone',
      );
    }
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
  });

  it('stores a re-authentication code under purpose reauth and the plain number, never a prefixed identifier', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    t.clock.advance(60_000);
    await startReauth(t, token);
    expect(await db().selectFrom('otp_codes').select(['purpose', 'channel', 'identifier']).execute()).toEqual(
      [{ purpose: 'reauth', channel: 'sms', identifier: PHONE }],
    );
  });

  it('keeps re-authentication codes out of a sign-in flood: a user whose number is flooded still confirms', async () => {
    const t = await createTestApp(db(), { config: { otp: FAST_PROOF_POLICY } });
    const { token } = await t.signIn('sms', PHONE);
    // Someone spends the number's sign-in codes from other browsers, solving proofs of work (before, sign-in
    // and confirmation codes shared 5 an hour).
    for (let i = 0; i < 9; i++) {
      const attacker = { device: newDevice(), ip: `203.0.113.${i}` };
      let started = await t.post('/api/auth/otp/start', { channel: 'sms', to: PHONE }, attacker);
      if (started.statusCode === 403) {
        const proof = await solveProof(challengeOf(started));
        started = await t.post('/api/auth/otp/start', { channel: 'sms', to: PHONE, proof }, attacker);
      }
      expect(started.statusCode).toBe(200);
    }
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
  });

  it('re-authenticates only the session that verified the code', async () => {
    const t = await createTestApp(db());
    const first = await userWithWallet(t);
    t.clock.advance(60_000);
    const second = await t.signIn('sms', PHONE);
    t.clock.advance(60_000);
    const code = await startReauth(t, first.token);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token: first.token })).statusCode).toBe(200);
    expect((await exportKey(t, first.token)).statusCode).toBe(200);
    expectError(await exportKey(t, second.token), 403, 'reauthentication_required');
  });

  it('answers export with 404 wallet_not_found to a re-authenticated user without a wallet', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    // The wallet is looked up before the proof (this account has no key to sign one).
    expectError(
      await t.post('/api/wallet/export', { proof: MADE_UP_PROOF }, { token }),
      404,
      'wallet_not_found',
    );
  });

  it('answers export with the rotated generation, and no share', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const rotatedShare = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
    const rotated = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet/shares',
      headers: { origin: 'http://localhost:8080', cookie: `dial_session=${token}` },
      payload: await signedRotation(t, token, WALLET, { expectedGeneration: 1, authShare: rotatedShare }),
    });
    expect(rotated.statusCode).toBe(200);
    t.clock.advance(60_000);
    const code = await startReauth(t, token);
    await t.post('/api/auth/reauth/verify', { code }, { token });
    const exported = await exportKey(t, token);
    expect(exported.json()).toEqual({ address: ADDRESS, generation: 2 });
    expect(exported.body).not.toContain(rotatedShare);
  });

  it('holds re-authentication codes to the sign-in cooldown (429 code_recently_sent with Retry-After)', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    t.clock.advance(60_000);
    await startReauth(t, token);
    t.clock.advance(10_000);
    const again = await t.post('/api/auth/reauth/start', {}, { token });
    expectError(again, 429, 'code_recently_sent');
    expect(again.headers['retry-after']).toBe('20');
  });

  it('answers 401 to start, verify and export when signed out', async () => {
    const t = await createTestApp(db());
    expectError(await t.post('/api/auth/reauth/start', {}), 401, 'unauthorized');
    expectError(await t.post('/api/auth/reauth/verify', { code: '123456' }), 401, 'unauthorized');
    expectError(await t.post('/api/wallet/export', { proof: MADE_UP_PROOF }), 401, 'unauthorized');
    expect(t.transport.sent).toHaveLength(0);
  });

  it.each([
    ['a 5-digit code', { code: '12345' }],
    ['a code with letters', { code: '12345a' }],
    ['a numeric code', { code: 123456 }],
    ['no code', {}],
  ])('refuses %s with 400 invalid_data', async (_name, body) => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    expectError(await t.post('/api/auth/reauth/verify', body, { token }), 400, 'invalid_data');
  });
});
