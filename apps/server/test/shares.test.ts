import { randomBytes } from 'node:crypto';
import {
  accountChangeTarget,
  combineWalletShares,
  createWalletShares,
  decodeShare,
  encodeShare,
  type RecoveryShareRecord,
} from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import type { Database } from '../src/db/database.js';
import { loadWallet } from '../src/wallet/walletStore.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, ORIGIN, PHONE, type TestApp } from './testApp.js';
import {
  accountProof,
  randomShare,
  registerWallet,
  requestChallenge,
  signProof,
  type TestWallet,
  testWallet,
  userIdOf,
} from './walletProof.js';

const WALLET = testWallet(1);
const ADDRESS = WALLET.address;
const OTHER_ADDRESS = '0x0000000000000000000000000000000000000001';
/** A proof that passes the schema, for bodies the server refuses before it checks the proof. */
const DUMMY_PROOF = { challenge: 'A'.repeat(43), signature: `0x${'1'.repeat(130)}` };

/**
 * The wallet as the tests of the recovery pair read it: `GET /api/wallet`'s address, generation and recovery,
 * with the pair's auth share as stored in `wallets` (decrypted), which `GET /api/wallet` no longer gives.
 */
async function pairView(db: Kysely<Database>, t: TestApp, token: string) {
  const response = await t.get('/api/wallet', { token });
  if (response.statusCode !== 200) return response;
  const { address, generation, recovery } = response.json();
  const key = deriveKey(t.config.shareEncryptionKey, 'dial/auth-share');
  const stored = await loadWallet(db, key, await userIdOf(t, token));
  const wallet = { address, authShare: encodeShare(stored!.authShare), generation, recovery };
  return { statusCode: 200, json: () => wallet };
}

function passwordRecovery() {
  return {
    method: 'password' as const,
    ciphertext: randomBytes(61).toString('base64'),
    kdf: {
      name: 'scrypt',
      N: 131_072,
      r: 8,
      p: 1,
      salt: randomBytes(16).toString('base64'),
      oprf: 'ristretto255-sha512',
    },
  };
}

function sendPut(t: TestApp, token: string | undefined, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PUT',
    url: '/api/wallet/shares',
    headers: { origin: ORIGIN, ...(token === undefined ? {} : { cookie: `${SESSION_COOKIE}=${token}` }) },
    payload: body as object,
  });
}

/**
 * `PUT /api/wallet/shares` as the web app sends it: the body signed by `signer`'s key (the wallet's own by
 * default) over a challenge of this session. A body too malformed to sign gets a dummy proof: the server
 * refuses it before it looks at the proof.
 */
async function putShares(
  t: TestApp,
  token: string | undefined,
  body: Record<string, unknown>,
  signer: TestWallet = WALLET,
): Promise<LightMyRequestResponse> {
  let proof: unknown = DUMMY_PROOF;
  const signable =
    token !== undefined &&
    typeof body.expectedGeneration === 'number' &&
    typeof body.authShare === 'string' &&
    decodesAsShare(body.authShare);
  if (signable && (await t.get('/api/me', { token })).statusCode === 200) {
    proof = await signProof(signer.privateKey, {
      purpose: 'rotate-shares',
      challenge: await requestChallenge(t, token, 'rotate-shares'),
      userId: await userIdOf(t, token),
      address: signer.address,
      fromGeneration: body.expectedGeneration as number,
      authShare: body.authShare as string,
      recovery: (body.recovery as RecoveryShareRecord | undefined) ?? null,
    });
  }
  return sendPut(t, token, { ...body, proof });
}

function decodesAsShare(text: string): boolean {
  try {
    decodeShare(text);
    return true;
  } catch {
    return false;
  }
}

/** Signs in by SMS and registers a wallet; returns the session token and the registered auth share. */
async function userWithWallet(
  t: TestApp,
  phone = PHONE,
  wallet: TestWallet = WALLET,
): Promise<{ token: string; share: string }> {
  const { token } = await t.signIn('sms', phone);
  const { response, authShare } = await registerWallet(t, token, { wallet });
  expect(response.statusCode).toBe(201);
  return { token, share: authShare };
}

describe.each(DIALECTS)('share rotation on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('replaces the auth share, increments the generation and stores the recovery share with it', async () => {
    const t = await createTestApp(db());
    const { token, share: oldShare } = await userWithWallet(t);
    const newShare = randomShare();
    const recovery = passwordRecovery();
    const rotated = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: newShare,
      recovery,
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ address: ADDRESS, generation: 2 });

    const wallet = await pairView(db(), t, token);
    expect(wallet.json()).toEqual({
      address: ADDRESS,
      authShare: newShare,
      generation: 2,
      recovery: { method: 'password', createdAt: t.clock.now().toISOString() },
    });
    expect(wallet.json().authShare).not.toBe(oldShare);
    const fetched = await t.get('/api/wallet/recovery', { token });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({ generation: 2, ...recovery, address: ADDRESS, authShare: newShare });
    const row = await db().selectFrom('recovery_shares').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ generation: 2, method: 'password', ciphertext: recovery.ciphertext });
    expect(JSON.parse(row.kdf)).toEqual(recovery.kdf);
  });

  it('accepts a lower-case address for the registered wallet', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const rotated = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS.toLowerCase(),
      authShare: randomShare(),
    });
    expect(rotated.json()).toEqual({ address: ADDRESS, generation: 2 });
  });

  it('refuses a stale expectedGeneration with 409 and changes nothing', async () => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    const before = await db().selectFrom('wallets').selectAll().executeTakeFirstOrThrow();
    for (const expectedGeneration of [2, 7]) {
      const response = await putShares(t, token, {
        expectedGeneration,
        address: ADDRESS,
        authShare: randomShare(),
        recovery: passwordRecovery(),
      });
      expectError(response, 409, 'stale_share_generation');
    }
    expect(await db().selectFrom('wallets').selectAll().executeTakeFirstOrThrow()).toEqual(before);
    expect(await db().selectFrom('recovery_shares').selectAll().execute()).toEqual([]);
    expect((await pairView(db(), t, token)).json()).toEqual({
      address: ADDRESS,
      authShare: share,
      generation: 1,
      recovery: null,
    });
  });

  it('refuses a generation that an earlier rotation used up', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const winner = randomShare();
    await putShares(t, token, { expectedGeneration: 1, address: ADDRESS, authShare: winner });
    const again = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expectError(again, 409, 'stale_share_generation');
    expect((await pairView(db(), t, token)).json()).toMatchObject({
      authShare: winner,
      generation: 2,
    });
  });

  it('lets exactly one of two concurrent rotations from the same generation win', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const shares = [randomShare(), randomShare()];
    const answers = await Promise.all(
      shares.map((authShare) =>
        putShares(t, token, {
          expectedGeneration: 1,
          address: ADDRESS,
          authShare,
          recovery: passwordRecovery(),
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.findIndex((answer) => answer.statusCode === 200);
    expect(answers[winner]?.json()).toEqual({ address: ADDRESS, generation: 2 });
    expectError(answers[1 - winner]!, 409, 'stale_share_generation');
    const wallet = (await pairView(db(), t, token)).json();
    expect(wallet.authShare).toBe(shares[winner]);
    expect(wallet.generation).toBe(2);
    expect(await db().selectFrom('recovery_shares').select('generation').execute()).toEqual([
      { generation: 2 },
    ]);
  });

  it('refuses another address with 400 invalid_data and changes nothing', async () => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    const response = await putShares(t, token, {
      expectedGeneration: 1,
      address: OTHER_ADDRESS,
      authShare: randomShare(),
    });
    expectError(response, 400, 'invalid_data');
    expect((await pairView(db(), t, token)).json()).toMatchObject({ authShare: share, generation: 1 });
  });

  it('deletes the old recovery share when a rotation brings none (it no longer combines)', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
      recovery: passwordRecovery(),
    });
    const rotated = await putShares(t, token, {
      expectedGeneration: 2,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expect(rotated.json()).toEqual({ address: ADDRESS, generation: 3 });
    expect((await pairView(db(), t, token)).json()).toMatchObject({ generation: 3, recovery: null });
    expectError(await t.get('/api/wallet/recovery', { token }), 404, 'recovery_not_set_up');
    expect(await db().selectFrom('recovery_shares').selectAll().execute()).toEqual([]);
  });

  it('replaces the recovery share with the new one at every rotation', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
      recovery: passwordRecovery(),
    });
    t.clock.advance(60_000);
    const passkey = {
      method: 'passkey' as const,
      ciphertext: randomBytes(61).toString('base64'),
      kdf: { name: 'webauthn-prf', credentialId: 'AbC-_12', salt: randomBytes(32).toString('base64') },
    };
    await putShares(t, token, {
      expectedGeneration: 2,
      address: ADDRESS,
      authShare: randomShare(),
      recovery: passkey,
    });
    expect((await t.get('/api/wallet/recovery', { token })).json()).toEqual({
      generation: 3,
      ...passkey,
      address: ADDRESS,
      authShare: expect.any(String),
    });
    expect((await pairView(db(), t, token)).json().recovery).toEqual({
      method: 'passkey',
      createdAt: t.clock.now().toISOString(),
    });
  });

  it('answers 404 wallet_not_found without a wallet, and 401 when signed out', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = { expectedGeneration: 1, address: ADDRESS, authShare: randomShare() };
    expectError(await putShares(t, token, body), 404, 'wallet_not_found');
    expectError(await putShares(t, undefined, body), 401, 'unauthorized');
  });

  it('needs a fresh code: refused 10 minutes after sign-in, allowed for 5 minutes after re-authentication', async () => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    t.clock.advance(10 * 60_000);

    const stale = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expectError(stale, 403, 'reauthentication_required');
    const unchanged = await pairView(db(), t, token);
    expect(unchanged.json()).toMatchObject({ authShare: share, generation: 1 });

    expect((await t.post('/api/auth/reauth/start', {}, { token })).statusCode).toBe(200);
    const code = t.transport.lastCode(PHONE);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    const fresh = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({ address: ADDRESS, generation: 2 });

    t.clock.advance(5 * 60_000);
    const expired = await putShares(t, token, {
      expectedGeneration: 2,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expectError(expired, 403, 'reauthentication_required');
  });

  it('refuses a cross-site rotation with 403 forbidden_origin', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet/shares',
      headers: { origin: 'https://evil.example', cookie: `${SESSION_COOKIE}=${token}` },
      payload: { expectedGeneration: 1, address: ADDRESS, authShare: randomShare(), proof: DUMMY_PROOF },
    });
    expectError(response, 403, 'forbidden_origin');
  });

  it('refuses a password record a copy of the database could be guessed against (no OPRF), and changes nothing', async () => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    const { salt } = passwordRecovery().kdf;
    for (const kdf of [
      { ...passwordRecovery().kdf, oprf: undefined },
      { name: 'pbkdf2', hash: 'SHA-256', iterations: 600_000, salt },
    ]) {
      const response = await putShares(t, token, {
        expectedGeneration: 1,
        address: ADDRESS,
        authShare: randomShare(),
        recovery: { ...passwordRecovery(), kdf },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'invalid_data',
        message: expect.stringMatching(/^A recovery password must be hardened with this server's OPRF/),
      });
    }
    expect((await pairView(db(), t, token)).json()).toMatchObject({ authShare: share, generation: 1 });
  });

  const scrypt = passwordRecovery().kdf;
  it.each([
    ['expectedGeneration 0', { expectedGeneration: 0 }],
    ['expectedGeneration as a string', { expectedGeneration: '1' }],
    ['a fractional expectedGeneration', { expectedGeneration: 1.5 }],
    ['a missing expectedGeneration', { expectedGeneration: undefined }],
    ['a share of 32 bytes', { authShare: encodeShare(new Uint8Array(32)) }],
    ['a share that is not base64', { authShare: 'not base64!' }],
    ['an address with a wrong checksum', { address: ADDRESS.replace('7E5F', '7e5F') }],
    ['an unknown property', { extra: true }],
    ['an unknown recovery method', { recovery: { ...passwordRecovery(), method: 'sms' } }],
    [
      'a recovery ciphertext that is not base64',
      { recovery: { ...passwordRecovery(), ciphertext: 'a b c' } },
    ],
    ['a recovery without kdf', { recovery: { method: 'password', ciphertext: 'AAAA' } }],
    ['an unknown KDF', { recovery: { ...passwordRecovery(), kdf: { name: 'md5', salt: scrypt.salt } } }],
    ['a weak scrypt N', { recovery: { ...passwordRecovery(), kdf: { ...scrypt, N: 1024 } } }],
    [
      'an scrypt N that is not a power of two',
      { recovery: { ...passwordRecovery(), kdf: { ...scrypt, N: 100_000 } } },
    ],
    [
      'an scrypt N the web app would refuse to run',
      { recovery: { ...passwordRecovery(), kdf: { ...scrypt, N: 2_097_152 } } },
    ],
    ['an scrypt r over 16', { recovery: { ...passwordRecovery(), kdf: { ...scrypt, r: 17 } } }],
    ['an scrypt p over 4', { recovery: { ...passwordRecovery(), kdf: { ...scrypt, p: 5 } } }],
    ['a short salt', { recovery: { ...passwordRecovery(), kdf: { ...scrypt, salt: 'AAAA' } } }],
    ['an extra KDF property', { recovery: { ...passwordRecovery(), kdf: { ...scrypt, pepper: 'x' } } }],
    [
      'an unknown OPRF suite',
      { recovery: { ...passwordRecovery(), kdf: { ...scrypt, oprf: 'p256-sha256' } } },
    ],
    [
      'too few pbkdf2 iterations',
      {
        recovery: {
          ...passwordRecovery(),
          kdf: { name: 'pbkdf2', hash: 'SHA-256', iterations: 1000, salt: scrypt.salt },
        },
      },
    ],
    ['a recovery that is a string', { recovery: 'secret' }],
  ])('refuses %s with 400 invalid_data and changes nothing', async (_name, change) => {
    const t = await createTestApp(db());
    const { token, share } = await userWithWallet(t);
    const response = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
      ...change,
    });
    expectError(response, 400, 'invalid_data');
    expect((await pairView(db(), t, token)).json()).toEqual({
      address: ADDRESS,
      authShare: share,
      generation: 1,
      recovery: null,
    });
  });
});

describe.each(DIALECTS)('the recovery share on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function userWithRecovery(t: TestApp, phone = PHONE, wallet = WALLET) {
    const { token } = await userWithWallet(t, phone, wallet);
    const recovery = passwordRecovery();
    const rotated = await putShares(
      t,
      token,
      { expectedGeneration: 1, address: wallet.address, authShare: randomShare(), recovery },
      wallet,
    );
    expect(rotated.statusCode).toBe(200);
    return { token, recovery };
  }

  it('answers 404 recovery_not_set_up when recovery was never set up', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    expectError(await t.get('/api/wallet/recovery', { token }), 404, 'recovery_not_set_up');
  });

  it("gives another user their own 404, never the owner's recovery share", async () => {
    const t = await createTestApp(db());
    const owner = await userWithRecovery(t);
    const other = await t.signIn('email', 'eve@example.com');
    const response = await t.get('/api/wallet/recovery', { token: other.token });
    expectError(response, 404, 'recovery_not_set_up');
    expect(response.body).not.toContain(owner.recovery.ciphertext);
  });

  it('answers 401 to the fetch and the failure report when signed out', async () => {
    const t = await createTestApp(db());
    await userWithRecovery(t);
    expectError(await t.get('/api/wallet/recovery'), 401, 'unauthorized');
    expectError(await t.post('/api/wallet/recovery/failed', {}), 401, 'unauthorized');
  });

  it('does not count fetches of the recovery share: the owner gets it however often, after the limit too', async () => {
    const t = await createTestApp(db());
    const { token, recovery } = await userWithRecovery(t);
    const { max } = RATE_LIMITS.walletRecoveryPerUser;
    for (let i = 0; i < 2 * max; i++) {
      expect((await t.get('/api/wallet/recovery', { token })).json()).toEqual({
        generation: 2,
        ...recovery,
        address: ADDRESS,
        authShare: expect.any(String),
      });
    }
    // The hour's tries are all still there: a reported failure is the first.
    const reported = await t.post('/api/wallet/recovery/failed', {}, { token });
    expect(reported.statusCode).toBe(204);
    for (let i = 1; i < max; i++) await t.post('/api/wallet/recovery/failed', {}, { token });
    expectError(await t.post('/api/wallet/recovery/failed', {}, { token }), 429, 'too_many_requests');
    // Spent, the tries stop guesses (each needs an evaluation), not the record.
    expect((await t.get('/api/wallet/recovery', { token })).statusCode).toBe(200);
  });

  it('counts reported wrong passwords against the recovery limit, with Retry-After past it', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithRecovery(t);
    const { max } = RATE_LIMITS.walletRecoveryPerUser;
    for (let i = 0; i < max; i++) {
      const reported = await t.post('/api/wallet/recovery/failed', {}, { token });
      expect(reported.statusCode).toBe(204);
      expect(reported.body).toBe('');
    }
    t.clock.advance(600_000);
    const refused = await t.post('/api/wallet/recovery/failed', undefined, { token });
    expectError(refused, 429, 'too_many_requests');
    // The clock started on the hour and moved 10 minutes: the hourly window ends in 50.
    expect(refused.headers['retry-after']).toBe('3000');
    t.clock.advance(3_000_000);
    expect((await t.post('/api/wallet/recovery/failed', {}, { token })).statusCode).toBe(204);
  });

  it('keeps a separate limit per user', async () => {
    const t = await createTestApp(db());
    const first = await userWithRecovery(t);
    const second = await userWithRecovery(t, '+447400123457', testWallet(2));
    for (let i = 0; i <= RATE_LIMITS.walletRecoveryPerUser.max; i++) {
      await t.post('/api/wallet/recovery/failed', {}, { token: first.token });
    }
    expect((await t.post('/api/wallet/recovery/failed', {}, { token: first.token })).statusCode).toBe(429);
    expect((await t.post('/api/wallet/recovery/failed', {}, { token: second.token })).statusCode).toBe(204);
  });
});

describe.each(DIALECTS)('an attacker with one sign-in code but without the key, on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /**
   * The owner's real wallet: a key split 2-of-3, the auth share registered, recovery set up (generation 2).
   * Returns the device share the owner's browser keeps and the stored recovery record.
   */
  async function ownerWithRealShares(t: TestApp) {
    const { token } = await t.signIn('sms', PHONE);
    const first = await createWalletShares(WALLET.privateKey);
    const registered = await registerWallet(t, token, { authShare: encodeShare(first.authShare) });
    expect(registered.response.statusCode).toBe(201);
    const second = await createWalletShares(WALLET.privateKey);
    const recovery = passwordRecovery();
    const rotated = await putShares(t, token, {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: encodeShare(second.authShare),
      recovery,
    });
    expect(rotated.statusCode).toBe(200);
    return { deviceShare: second.deviceShare, recovery };
  }

  /** The owner's device share still rebuilds the key with the server's auth share, and recovery is intact. */
  async function expectWalletIntact(
    t: TestApp,
    owner: { deviceShare: Uint8Array; recovery: ReturnType<typeof passwordRecovery> },
  ) {
    const { token } = await t.signIn('sms', PHONE);
    const wallet = (await t.get('/api/wallet', { token })).json();
    expect(wallet).toMatchObject({ address: ADDRESS, generation: 2, recovery: { method: 'password' } });
    // The recovery pair's auth share, as recovery reads it, still rebuilds the key with a share of its split.
    const stored = (await t.get('/api/wallet/recovery', { token })).json();
    await expect(
      combineWalletShares([owner.deviceShare, decodeShare(stored.authShare)], ADDRESS),
    ).resolves.toBe(WALLET.privateKey);
    expect(stored).toEqual({
      generation: 2,
      ...owner.recovery,
      address: ADDRESS,
      authShare: expect.any(String),
    });
  }

  it('cannot replace the auth share or drop the recovery share without a proof', async () => {
    const t = await createTestApp(db());
    const owner = await ownerWithRealShares(t);
    // A SIM swap: the attacker receives one code for the owner's number and signs in (a fresh session).
    const attacker = await t.signIn('sms', PHONE);
    const response = await sendPut(t, attacker.token, {
      expectedGeneration: 2,
      address: ADDRESS,
      authShare: randomShare(),
    });
    expectError(response, 400, 'invalid_data');
    await expectWalletIntact(t, owner);
  });

  it("cannot replace them with a proof signed by the attacker's own key", async () => {
    const t = await createTestApp(db());
    const owner = await ownerWithRealShares(t);
    const attacker = await t.signIn('sms', PHONE);
    const body = { expectedGeneration: 2, address: ADDRESS, authShare: randomShare() };
    expectError(await putShares(t, attacker.token, body, testWallet(666)), 403, 'wallet_proof_invalid');
    expectError(
      await putShares(t, attacker.token, { ...body, recovery: passwordRecovery() }, testWallet(666)),
      403,
      'wallet_proof_invalid',
    );
    await expectWalletIntact(t, owner);
  });

  it("cannot reuse the owner's proof for other shares, another generation or another recovery share", async () => {
    const t = await createTestApp(db());
    const owner = await ownerWithRealShares(t);
    const { token } = await t.signIn('sms', PHONE);
    const signed = {
      expectedGeneration: 2,
      address: ADDRESS,
      authShare: randomShare(),
      recovery: passwordRecovery(),
    };
    const proofFor = async () =>
      signProof(WALLET.privateKey, {
        purpose: 'rotate-shares',
        challenge: await requestChallenge(t, token, 'rotate-shares'),
        userId: await userIdOf(t, token),
        address: ADDRESS,
        fromGeneration: signed.expectedGeneration,
        authShare: signed.authShare,
        recovery: signed.recovery,
      });
    const swaps = [
      { authShare: randomShare() },
      { recovery: passwordRecovery() },
      {
        recovery: {
          ...signed.recovery,
          kdf: { ...signed.recovery.kdf, salt: randomBytes(16).toString('base64') },
        },
      },
      { recovery: undefined },
    ];
    for (const swap of swaps) {
      const response = await sendPut(t, token, { ...signed, ...swap, proof: await proofFor() });
      expectError(response, 403, 'wallet_proof_invalid');
    }
    await expectWalletIntact(t, owner);
  });

  it("cannot use a registration challenge, or another user's signed rotation, to rotate", async () => {
    const t = await createTestApp(db());
    const owner = await ownerWithRealShares(t);
    const { token } = await t.signIn('sms', PHONE);
    const authShare = randomShare();
    const wrongPurpose = await signProof(WALLET.privateKey, {
      purpose: 'rotate-shares',
      challenge: await requestChallenge(t, token, 'register-wallet'),
      userId: await userIdOf(t, token),
      address: ADDRESS,
      fromGeneration: 2,
      authShare,
      recovery: null,
    });
    expectError(
      await sendPut(t, token, { expectedGeneration: 2, address: ADDRESS, authShare, proof: wrongPurpose }),
      400,
      'wallet_proof_expired',
    );
    await expectWalletIntact(t, owner);
  });
});

describe.each(DIALECTS)('telling the owner on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function events() {
    return (await db().selectFrom('account_events').select('kind').orderBy('created_at').execute()).map(
      (row) => row.kind,
    );
  }

  /** The messages without a code sent to the owner's phone: the notices. */
  function notices(t: TestApp) {
    return t.transport.sent.filter((message) => message.to === PHONE && message.code === undefined);
  }

  it('records a recovery change and a rotation and sends the owner a notice for each', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const withRecovery = {
      expectedGeneration: 1,
      address: ADDRESS,
      authShare: randomShare(),
      recovery: passwordRecovery(),
    };
    expect((await putShares(t, token, withRecovery)).statusCode).toBe(200);
    expect(
      (await putShares(t, token, { expectedGeneration: 2, address: ADDRESS, authShare: randomShare() }))
        .statusCode,
    ).toBe(200);
    expect(await events()).toEqual(['recovery-changed', 'shares-rotated']);
    const sent = notices(t);
    expect(sent).toHaveLength(2);
    for (const notice of sent) expect(notice.text).toMatch(/not you/i);
  });

  it('sends nothing for a refused change', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const refused = await putShares(
      t,
      token,
      { expectedGeneration: 1, address: ADDRESS, authShare: randomShare() },
      testWallet(9),
    );
    expect(refused.statusCode).toBe(403);
    expect(await events()).toEqual([]);
    expect(notices(t)).toEqual([]);
  });

  it('records an export and tells the owner, after the fresh code and with the key’s proof', async () => {
    const t = await createTestApp(db());
    const { token } = await userWithWallet(t);
    const exportKey = async () => {
      const proof = await accountProof(t, token, WALLET, {
        action: 'export-key',
        target: accountChangeTarget({ action: 'export-key', address: ADDRESS }),
      });
      return t.post('/api/wallet/export', { proof }, { token });
    };
    expectError(await exportKey(), 403, 'reauthentication_required');
    expect(await events()).toEqual([]);
    expect((await t.post('/api/auth/reauth/start', {}, { token })).statusCode).toBe(200);
    const code = t.transport.lastCode(PHONE);
    expect((await t.post('/api/auth/reauth/verify', { code }, { token })).statusCode).toBe(200);
    // The fresh code alone does not export, nor tell anyone of an export.
    expectError(await t.post('/api/wallet/export', {}, { token }), 400, 'invalid_data');
    expect(await events()).toEqual([]);
    expect(notices(t)).toEqual([]);
    expect((await exportKey()).statusCode).toBe(200);
    expect(await events()).toEqual(['key-exported']);
    expect(notices(t)).toEqual([
      expect.objectContaining({ channel: 'sms', subject: "Dial: your wallet's private key was exported" }),
    ]);
  });
});
