import { encodeShare, SHARE_LENGTH } from '@dial/core';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../src/crypto/deriveKey.js';
import type { Database } from '../src/db/database.js';
import { loadWallet } from '../src/wallet/walletStore.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import {
  deviceInput,
  randomShare,
  registerWallet as register,
  requestChallenge,
  signedRegistration,
  signProof,
  type TestWallet,
  testDevice,
  testWallet,
  unlockDevice,
  userIdOf,
} from './walletProof.js';

const WALLET = testWallet(1);
const ADDRESS = WALLET.address;
/** A proof that passes the schema; the handler refuses the input before it checks the proof. */
const DUMMY_PROOF = { challenge: 'A'.repeat(43), signature: `0x${'1'.repeat(130)}` };

/** The recovery pair's auth share as stored in `wallets`, decrypted (GET /api/wallet gives none). */
async function storedPairShare(db: Kysely<Database>, t: TestApp, token: string): Promise<string> {
  const key = deriveKey(t.config.shareEncryptionKey, 'dial/auth-share');
  const stored = await loadWallet(db, key, await userIdOf(t, token));
  return encodeShare(stored!.authShare);
}

/** Registers `wallet` (the first test wallet by default) for the session, with a valid proof. */
async function registerWallet(
  t: TestApp,
  token: string,
  wallet: TestWallet = WALLET,
  authShare = randomShare(),
) {
  return (await register(t, token, { wallet, authShare })).response;
}

describe.each(DIALECTS)('the wallet registry on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('registers a wallet (201, checksummed address, its first device) and gives it back to its owner without an auth share', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const share = randomShare();
    const created = (await register(t, token, { address: ADDRESS.toLowerCase(), authShare: share })).response;
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ address: ADDRESS, device: expect.objectContaining({ how: 'created' }) });
    const fetched = await t.get('/api/wallet', { token });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({
      address: ADDRESS,
      generation: 1,
      recovery: null,
      devices: 1,
      legacyAuthShare: null,
    });
    expect(await storedPairShare(db(), t, token)).toBe(share);
  });

  it('answers 404 wallet_not_found before a wallet is registered', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.get('/api/wallet', { token });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('wallet_not_found');
  });

  it("gives another user's session their own 404, never the owner's share", async () => {
    const t = await createTestApp(db());
    const owner = await t.signIn('sms', PHONE);
    await registerWallet(t, owner.token);
    const other = await t.signIn('email', 'eve@example.com');
    const response = await t.get('/api/wallet', { token: other.token });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('wallet_not_found');
  });

  it('answers 401 to GET and POST when signed out', async () => {
    const t = await createTestApp(db());
    expect((await t.get('/api/wallet')).statusCode).toBe(401);
    const post = await t.post('/api/wallet', {
      address: ADDRESS,
      authShare: randomShare(),
      device: deviceInput(testDevice()),
      proof: DUMMY_PROOF,
    });
    expect(post.statusCode).toBe(401);
    expect(post.json().error.code).toBe('unauthorized');
  });

  it('refuses a second registration with 409 and keeps the first', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const first = randomShare();
    await registerWallet(t, token, WALLET, first);
    const second = await registerWallet(t, token, testWallet(2));
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('embedded_wallet_already_exists');
    expect((await t.get('/api/wallet', { token })).json()).toMatchObject({ address: ADDRESS, devices: 1 });
    expect(await storedPairShare(db(), t, token)).toBe(first);
  });

  it('gives concurrent registrations one wallet and 409 for the others, never a 500', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const answers = await Promise.all(Array.from({ length: 4 }, () => registerWallet(t, token)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });

  it.each([
    ['an address without 0x', { address: ADDRESS.slice(2) }],
    ['a short address', { address: ADDRESS.slice(0, 40) }],
    ['an address with a wrong checksum', { address: ADDRESS.replace('7E5F', '7e5F') }],
    ['a share of 32 bytes', { authShare: encodeShare(new Uint8Array(32)) }],
    ['a share of 34 bytes', { authShare: encodeShare(new Uint8Array(34)) }],
    ['a share that is not base64', { authShare: 'not base64!' }],
    ['a base64url share', { authShare: Buffer.from(new Uint8Array(33).fill(251)).toString('base64url') }],
    ['a numeric share', { authShare: 12345 }],
    ['a missing share', { authShare: undefined }],
  ])('refuses %s with 400 invalid_data', async (_name, change) => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.post(
      '/api/wallet',
      { address: ADDRESS, authShare: randomShare(), proof: DUMMY_PROOF, ...change },
      { token },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_data');
    expect(await db().selectFrom('wallets').selectAll().execute()).toEqual([]);
  });

  it('stores the share encrypted: neither the share nor its bytes appear in the row', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const share = randomShare();
    await registerWallet(t, token, WALLET, share);
    const row = await db().selectFrom('wallets').selectAll().executeTakeFirstOrThrow();
    expect(row.key_version).toBe(1);
    expect(Buffer.from(row.iv, 'base64')).toHaveLength(12);
    // 33 bytes of ciphertext and a 16-byte tag.
    expect(Buffer.from(row.auth_share_ciphertext, 'base64')).toHaveLength(SHARE_LENGTH + 16);
    expect(row.auth_share_ciphertext).not.toBe(share);
    expect(Buffer.from(row.auth_share_ciphertext, 'base64').includes(Buffer.from(share, 'base64'))).toBe(
      false,
    );
  });

  it("fails to decrypt a ciphertext moved into another user's row (500, nothing leaked)", async () => {
    const t = await createTestApp(db());
    const victim = await t.signIn('sms', PHONE);
    const victimDevice = (await register(t, victim.token)).device;
    const attacker = await t.signIn('email', 'eve@example.com');
    const attackerWallet = await register(t, attacker.token, { wallet: testWallet(2) });
    const attackerDeviceId: string = attackerWallet.response.json().device.id;
    const victimId = await userIdOf(t, victim.token);
    const attackerId = await userIdOf(t, attacker.token);
    // The recovery pair's share, moved into the attacker's wallet row.
    const stolen = await db()
      .selectFrom('wallets')
      .selectAll()
      .where('user_id', '=', victimId)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('wallets')
      .set({ auth_share_ciphertext: stolen.auth_share_ciphertext, iv: stolen.iv })
      .where('user_id', '=', attackerId)
      .execute();
    await expect(storedPairShare(db(), t, attacker.token)).rejects.toThrow(/authenticate/);
    // The victim's device share, moved into the attacker's device row, unlocked with the attacker's secret.
    const stolenDevice = await db()
      .selectFrom('wallet_devices')
      .selectAll()
      .where('user_id', '=', victimId)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('wallet_devices')
      .set({ auth_share_ciphertext: stolenDevice.auth_share_ciphertext, iv: stolenDevice.iv })
      .where('id', '=', attackerDeviceId)
      .execute();
    const response = await unlockDevice(t, attacker.token, attackerDeviceId, attackerWallet.device.secret);
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal_error');
    expect(response.body).not.toContain(stolenDevice.auth_share_ciphertext ?? '-');
    expect(response.body).not.toContain(victimDevice.authShare);
  });

  it('fails to decrypt a tampered ciphertext', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const registered = await register(t, token);
    const row = await db().selectFrom('wallet_devices').selectAll().executeTakeFirstOrThrow();
    const bytes = Buffer.from(row.auth_share_ciphertext ?? '', 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    await db()
      .updateTable('wallet_devices')
      .set({ auth_share_ciphertext: bytes.toString('base64') })
      .execute();
    expect((await unlockDevice(t, token, row.id, registered.device.secret)).statusCode).toBe(500);
  });

  it('cannot be read with another SHARE_ENCRYPTION_KEY', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const registered = await register(t, token);
    const id: string = registered.response.json().device.id;
    const otherKey = await createTestApp(db());
    expect((await unlockDevice(otherKey, token, id, registered.device.secret)).statusCode).toBe(500);
    expect((await unlockDevice(t, token, id, registered.device.secret)).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)("proof of the wallet's key at registration on %s", (dialect) => {
  const db = useTestDatabase(dialect);

  /** Signs a registration of `address` + `authShare` with `signer`'s key, over a challenge of this session. */
  const signedBody = (
    t: TestApp,
    token: string,
    signer: TestWallet,
    address: string,
    authShare = randomShare(),
  ) => signedRegistration(t, token, signer, address, authShare);

  async function walletRows() {
    return db().selectFrom('wallets').select(['user_id', 'address']).execute();
  }

  it("refuses a squatter who signs someone else's address with another key (403, nothing stored)", async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', 'eve@example.com');
    const body = await signedBody(t, token, testWallet(2), WALLET.address);
    const response = await t.post('/api/wallet', body, { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('wallet_proof_invalid');
    expect(await walletRows()).toEqual([]);
  });

  it('refuses a registration without a proof (400 invalid_data)', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.post('/api/wallet', { address: ADDRESS, authShare: randomShare() }, { token });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_data');
    expect(await walletRows()).toEqual([]);
  });

  it('gives an address to one account only: a second account is refused with 409 wallet_address_taken', async () => {
    const t = await createTestApp(db());
    const owner = await t.signIn('sms', PHONE);
    expect((await registerWallet(t, owner.token)).statusCode).toBe(201);
    const other = await t.signIn('email', 'eve@example.com');
    const response = await registerWallet(t, other.token);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('wallet_address_taken');
    expect(await walletRows()).toHaveLength(1);
  });

  it('binds the proof to the auth share: a signature over another share is refused', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = await signedBody(t, token, WALLET, ADDRESS);
    const response = await t.post('/api/wallet', { ...body, authShare: randomShare() }, { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('wallet_proof_invalid');
    expect(await walletRows()).toEqual([]);
  });

  it("binds the proof to the first device: a signature over another device's share or secret is refused", async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = await signedBody(t, token, WALLET, ADDRESS);
    const otherShare = await t.post(
      '/api/wallet',
      { ...body, device: { ...body.device, authShare: randomShare() } },
      { token },
    );
    expect(otherShare.statusCode).toBe(403);
    expect(otherShare.json().error.code).toBe('wallet_proof_invalid');
    const again = await signedBody(t, token, WALLET, ADDRESS);
    const otherSecret = await t.post(
      '/api/wallet',
      { ...again, device: { ...again.device, secretHash: testDevice().secretHash } },
      { token },
    );
    expect(otherSecret.json().error.code).toBe('wallet_proof_invalid');
    expect(await walletRows()).toEqual([]);
    expect(await db().selectFrom('wallet_devices').selectAll().execute()).toEqual([]);
  });

  it('uses a challenge once: the same signed body sent again is refused as expired', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = await signedBody(t, token, WALLET, ADDRESS);
    expect((await t.post('/api/wallet', body, { token })).statusCode).toBe(201);
    const replay = await t.post('/api/wallet', body, { token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('wallet_proof_expired');
  });

  it("refuses a challenge issued to another session, even the same user's", async () => {
    const t = await createTestApp(db());
    const first = await t.signIn('sms', PHONE);
    const body = await signedBody(t, first.token, WALLET, ADDRESS);
    const second = await t.signIn('sms', PHONE);
    const response = await t.post('/api/wallet', body, { token: second.token });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('wallet_proof_expired');
    expect(await walletRows()).toEqual([]);
  });

  it('refuses a challenge issued for another purpose', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const authShare = randomShare();
    const device = testDevice();
    const proof = await signProof(WALLET.privateKey, {
      purpose: 'register-wallet',
      challenge: await requestChallenge(t, token, 'rotate-shares'),
      userId: await userIdOf(t, token),
      address: ADDRESS,
      fromGeneration: 0,
      authShare,
      recovery: null,
      device: deviceInput(device),
    });
    const response = await t.post(
      '/api/wallet',
      { address: ADDRESS, authShare, device: deviceInput(device), proof },
      { token },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('wallet_proof_expired');
  });

  it('refuses a challenge older than five minutes', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = await signedBody(t, token, WALLET, ADDRESS);
    t.clock.advance(5 * 60_000);
    const response = await t.post('/api/wallet', body, { token });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('wallet_proof_expired');
  });

  it('answers a signature that is not one with 403 wallet_proof_invalid, never a 500', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const body = await signedBody(t, token, WALLET, ADDRESS);
    const response = await t.post(
      '/api/wallet',
      { ...body, proof: { ...body.proof, signature: DUMMY_PROOF.signature } },
      { token },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('wallet_proof_invalid');
  });

  it('issues challenges only to a signed-in user, and at most 60 an hour', async () => {
    const t = await createTestApp(db());
    const signedOut = await t.post('/api/wallet/challenge', { purpose: 'register-wallet' });
    expect(signedOut.statusCode).toBe(401);
    const { token } = await t.signIn('sms', PHONE);
    for (let i = 0; i < 60; i += 1) await requestChallenge(t, token, 'register-wallet');
    const refused = await t.post('/api/wallet/challenge', { purpose: 'register-wallet' }, { token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('too_many_requests');
    const unknownPurpose = await t.post('/api/wallet/challenge', { purpose: 'export' }, { token });
    expect(unknownPurpose.statusCode).toBe(400);
  });
});
