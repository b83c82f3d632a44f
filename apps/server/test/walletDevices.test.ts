import { accountChangeTarget, decodeShare } from '@dial/core';
import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { unlockDevice as unlockStoredDevice } from '../src/wallet/deviceStore.js';
import { saveWallet } from '../src/wallet/walletStore.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE, type TestApp } from './testApp.js';
import {
  accountProof,
  randomShare,
  registerWallet,
  requestChallenge,
  signedEnrollment,
  signedRotation,
  type TestDevice,
  testDevice,
  testWallet,
  unlockDevice,
  userIdOf,
} from './walletProof.js';

const WALLET = testWallet(1);
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Signs in and registers the first test wallet with its first device; returns the session and the device. */
async function owner(t: TestApp, to = PHONE, wallet = WALLET) {
  const { token } = await t.signIn(to.startsWith('+') ? 'sms' : 'email', to);
  const registered = await registerWallet(t, token, { wallet });
  expect(registered.response.statusCode).toBe(201);
  const id: string = registered.response.json().device.id;
  return { token, device: { ...registered.device, id }, authShare: registered.authShare };
}

/** Enrolls `device` with `wallet`'s proof from this session (how `recovered`), as the web app does. */
async function enroll(t: TestApp, token: string, device: TestDevice, how = 'recovered', fromGeneration = 1) {
  const body = await signedEnrollment(t, token, WALLET, device, { fromGeneration });
  return t.post('/api/wallet/devices', { ...body, how }, { token, headers: { 'user-agent': CHROME_MAC } });
}

async function noticeKinds(t: TestApp, token: string) {
  const response = await t.get('/api/account/notices', { token });
  return (response.json().notices as { kind: string; summary: string | null }[]).map((notice) => [
    notice.kind,
    notice.summary,
  ]);
}

describe.each(DIALECTS)('the devices of a wallet on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('registers the wallet with its first device and gives no auth share but to that device, with its secret', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const first = testDevice();
    const created = (await registerWallet(t, token, { device: first })).response;
    expect(created.statusCode).toBe(201);
    const device = created.json().device;
    expect(created.json()).toEqual({
      address: WALLET.address,
      device: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Unknown browser',
        how: 'created',
        enrolledAt: t.clock.now().toISOString(),
        lastUsedAt: t.clock.now().toISOString(),
      },
    });
    expect((await t.get('/api/wallet', { token })).json()).toEqual({
      address: WALLET.address,
      generation: 1,
      recovery: null,
      devices: 1,
      legacyAuthShare: null,
    });
    expect((await t.get('/api/wallet/devices', { token })).json()).toEqual({ devices: [device] });
    const unlocked = await unlockDevice(t, token, device.id, first.secret);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({
      address: WALLET.address,
      generation: 1,
      recovery: null,
      authShare: first.authShare,
      device,
    });
    // The first device's registration told nobody: it is the wallet's creation.
    expect((await noticeKinds(t, token)).map(([kind]) => kind)).not.toContain('device-enrolled');
  });

  it("stores a device's auth share bound to its device: moved into another device's row it does not decrypt", async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const second = testDevice();
    const enrolled = (await enroll(t, token, second)).json().device;
    const rows = await db().selectFrom('wallet_devices').selectAll().execute();
    const firstRow = rows.find((row) => row.id === device.id)!;
    expect(firstRow.auth_share_ciphertext).not.toContain(device.authShare);
    await db()
      .updateTable('wallet_devices')
      .set({ auth_share_ciphertext: firstRow.auth_share_ciphertext, iv: firstRow.iv })
      .where('id', '=', enrolled.id)
      .execute();
    const key = deriveKey(t.config.shareEncryptionKey, 'dial/auth-share');
    const userId = await userIdOf(t, token);
    await expect(
      unlockStoredDevice(db(), key, userId, enrolled.id, second.secret, t.clock.now()),
    ).rejects.toThrow(/authenticate/);
    // Its own row still opens for its own device.
    const own = await unlockStoredDevice(db(), key, userId, device.id, device.secret, t.clock.now());
    expect(own.authShare).toEqual(decodeShare(device.authShare));
  });

  it("gives a session without an enrolled browser no device's auth share: a wrong secret, another user's device or a made-up id are all 404 device_not_found", async () => {
    const t = await createTestApp(db());
    const { device } = await owner(t);
    // The attacker: a session of the owner's account (a stolen cookie, a SIM swap) with no device's secret.
    const { token: stolen } = await t.signIn('sms', PHONE);
    const wrong = await unlockDevice(t, stolen, device.id, testDevice().secret);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.code).toBe('device_not_found');
    const madeUp = await unlockDevice(t, stolen, '00000000-0000-4000-8000-000000000000', device.secret);
    expect(madeUp.json().error.code).toBe('device_not_found');
    expect((await t.get('/api/wallet', { token: stolen })).json()).not.toHaveProperty('authShare');
    expect((await t.get('/api/wallet', { token: stolen })).json().legacyAuthShare).toBeNull();

    // Another user, even with the owner's device secret, gets nothing of the owner's device.
    const eve = await owner(t, 'eve@example.com', testWallet(2));
    const across = await unlockDevice(t, eve.token, device.id, device.secret);
    expect(across.statusCode).toBe(404);
    expect(across.json().error.code).toBe('device_not_found');
    expect(across.body).not.toContain(device.authShare);
  });

  it('enrolls a device with the key’s proof, tells the owner, and locks no other device out', async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const second = testDevice();
    const enrolled = await enroll(t, token, second);
    expect(enrolled.statusCode).toBe(201);
    expect(enrolled.json().device).toMatchObject({ name: 'Chrome on macOS', how: 'recovered' });
    expect((await t.get('/api/wallet', { token })).json().devices).toBe(2);
    // Both open the wallet, each with its own auth share.
    expect((await unlockDevice(t, token, device.id, device.secret)).json().authShare).toBe(device.authShare);
    expect((await unlockDevice(t, token, enrolled.json().device.id, second.secret)).json().authShare).toBe(
      second.authShare,
    );
    expect(await noticeKinds(t, token)).toContainEqual([
      'device-enrolled',
      'Chrome on macOS, after your wallet was recovered on it',
    ]);
    expect(t.transport.sent.at(-1)?.text).toContain('a new device can open your wallet');
  });

  it("refuses an enrolment without the key's proof, with another key's, or with a proof for another device or secret", async () => {
    const t = await createTestApp(db());
    const { token } = await owner(t);
    const device = testDevice();
    const base = await signedEnrollment(t, token, WALLET, device);

    // No valid challenge: made up.
    const madeUp = await t.post(
      '/api/wallet/devices',
      { ...base, how: 'recovered', proof: { challenge: 'A'.repeat(43), signature: base.proof.signature } },
      { token },
    );
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json().error.code).toBe('wallet_proof_expired');

    // Another key's signature over the very same change.
    const thief = await signedEnrollment(t, token, WALLET, device, { signer: testWallet(2) });
    const otherKey = await t.post('/api/wallet/devices', { ...thief, how: 'recovered' }, { token });
    expect(otherKey.statusCode).toBe(403);
    expect(otherKey.json().error.code).toBe('wallet_proof_invalid');

    // The owner's proof for one device, sent with another device's share, or another secret.
    const forOther = await signedEnrollment(t, token, WALLET, device);
    const otherShare = await t.post(
      '/api/wallet/devices',
      { ...forOther, how: 'recovered', device: { ...forOther.device, authShare: randomShare() } },
      { token },
    );
    expect(otherShare.statusCode).toBe(403);
    expect(otherShare.json().error.code).toBe('wallet_proof_invalid');
    const forSecret = await signedEnrollment(t, token, WALLET, device);
    const otherSecret = await t.post(
      '/api/wallet/devices',
      {
        ...forSecret,
        how: 'recovered',
        device: { ...forSecret.device, secretHash: testDevice().secretHash },
      },
      { token },
    );
    expect(otherSecret.json().error.code).toBe('wallet_proof_invalid');

    // A proof of the right device, replayed once used: its challenge is gone.
    expect((await t.post('/api/wallet/devices', { ...base, how: 'recovered' }, { token })).statusCode).toBe(
      201,
    );
    const replayed = await t.post(
      '/api/wallet/devices',
      { ...base, how: 'recovered', device: deviceOf(testDevice()) },
      { token },
    );
    expect(replayed.json().error.code).toBe('wallet_proof_expired');
    // A proof for another generation than the wallet's.
    const stale = await enroll(t, token, testDevice(), 'recovered', 0);
    expect(stale.json().error.code).toBe('wallet_proof_invalid');
    expect((await t.get('/api/wallet', { token })).json().devices).toBe(2);
  });

  it('refuses a device past MAX_WALLET_DEVICES with 409 devices_limit_reached, and counts removed ones no more', async () => {
    const t = await createTestApp(db(), { config: { maxWalletDevices: 2 } });
    const { token, device } = await owner(t);
    expect((await enroll(t, token, testDevice())).statusCode).toBe(201);
    const third = await enroll(t, token, testDevice());
    expect(third.statusCode).toBe(409);
    expect(third.json().error.code).toBe('devices_limit_reached');
    const target = accountChangeTarget({ action: 'remove-device', id: device.id });
    const proof = await accountProof(t, token, WALLET, { action: 'remove-device', target });
    expect((await t.post(`/api/wallet/devices/${device.id}/remove`, { proof }, { token })).statusCode).toBe(
      200,
    );
    expect((await enroll(t, token, testDevice())).statusCode).toBe(201);
  });

  it('removes a device with the proof: its share opens nothing, even with its secret and a fresh session, and the owner is told', async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const second = testDevice();
    const other = (await enroll(t, token, second)).json().device;
    const target = accountChangeTarget({ action: 'remove-device', id: device.id });
    const proof = await accountProof(t, token, WALLET, { action: 'remove-device', target });
    const removed = await t.post(`/api/wallet/devices/${device.id}/remove`, { proof }, { token });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: true });

    const row = await db()
      .selectFrom('wallet_devices')
      .selectAll()
      .where('id', '=', device.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ auth_share_ciphertext: null, iv: null, key_version: null });
    expect(row?.removed_at).toBe(t.clock.now().toISOString());
    for (const session of [token, (await t.signIn('sms', PHONE)).token]) {
      const refused = await unlockDevice(t, session, device.id, device.secret);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('device_removed');
      expect(refused.body).not.toContain(device.authShare);
    }
    // A wrong secret for the removed device learns not even that it was removed.
    expect((await unlockDevice(t, token, device.id, testDevice().secret)).json().error.code).toBe(
      'device_not_found',
    );
    expect(
      (await t.get('/api/wallet/devices', { token })).json().devices.map((d: { id: string }) => d.id),
    ).toEqual([other.id]);
    expect((await unlockDevice(t, token, other.id, second.secret)).statusCode).toBe(200);
    expect(await noticeKinds(t, token)).toContainEqual([
      'device-removed',
      'Unknown browser was removed: the key share it holds opens your wallet no more',
    ]);
    // Every open page of the account hears that the keys changed, so the removed browser checks its device.
    const events = await db()
      .selectFrom('wallet_events')
      .select(['kind', 'payload'])
      .where('user_id', '=', await userIdOf(t, token))
      .execute();
    expect(events.map((event) => event.kind)).toContain('keys');
    // Removing it again, or another user's device: 404.
    const again = await accountProof(t, token, WALLET, { action: 'remove-device', target });
    const twice = await t.post(`/api/wallet/devices/${device.id}/remove`, { proof: again }, { token });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error.code).toBe('device_not_found');
  });

  it('asks for a removal without the proof: the device opens the wallet until the cooling-off period ends', async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const { token: stolen } = await t.signIn('sms', PHONE);
    const eve = await owner(t, 'eve@example.com', testWallet(2));
    const foreign = await t.post(`/api/wallet/devices/${device.id}/remove`, {}, { token: eve.token });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('device_not_found');

    const asked = await t.post(`/api/wallet/devices/${device.id}/remove`, {}, { token: stolen });
    expect(asked.statusCode).toBe(202);
    expect(asked.json().pending).toMatchObject({
      action: 'remove-device',
      summary: 'Remove the device Unknown browser from your wallet',
    });
    expect((await unlockDevice(t, token, device.id, device.secret)).statusCode).toBe(200);
    t.clock.advance(t.config.coolingOffHours * 3_600_000);
    expect(await t.applyDueChanges()).toBe(1);
    // The owner's session idled out meanwhile: the owner signs in again, with the device's secret.
    const { token: again } = await t.signIn('sms', PHONE);
    expect((await unlockDevice(t, again, device.id, device.secret)).json().error.code).toBe('device_removed');
  });

  it('marks a device used at most once a minute', async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const enrolledAt = t.clock.now().toISOString();
    t.clock.advance(30_000);
    expect((await unlockDevice(t, token, device.id, device.secret)).json().device.lastUsedAt).toBe(
      enrolledAt,
    );
    t.clock.advance(31_000);
    const later = t.clock.now().toISOString();
    expect((await unlockDevice(t, token, device.id, device.secret)).json().device.lastUsedAt).toBe(later);
    t.clock.advance(10_000);
    expect((await unlockDevice(t, token, device.id, device.secret)).json().device.lastUsedAt).toBe(later);
  });

  it('limits unlocks per session, so a stolen session cannot spend the owner’s', async () => {
    const t = await createTestApp(db(), {
      config: {
        rateLimits: { ...RATE_LIMITS, deviceUnlocksPerSession: { max: 2, windowSeconds: 600 } },
      },
    });
    const { token, device } = await owner(t);
    const { token: stolen } = await t.signIn('sms', PHONE);
    for (let i = 0; i < 2; i++) await unlockDevice(t, stolen, device.id, testDevice().secret);
    const limited = await unlockDevice(t, stolen, device.id, device.secret);
    expect(limited.statusCode).toBe(429);
    expect((await unlockDevice(t, token, device.id, device.secret)).statusCode).toBe(200);
  });

  it('gives a wallet registered before devices its one auth share until its first enrolment, and never after', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const share = randomShare();
    await legacyWallet(db(), t, token, share);
    expect((await t.get('/api/wallet', { token })).json()).toEqual({
      address: WALLET.address,
      generation: 1,
      recovery: null,
      devices: 0,
      legacyAuthShare: share,
    });
    const adopted = await enroll(t, token, testDevice(), 'adopted');
    expect(adopted.statusCode).toBe(201);
    expect(adopted.json().device.how).toBe('adopted');
    expect((await t.get('/api/wallet', { token })).json()).toMatchObject({
      devices: 1,
      legacyAuthShare: null,
    });
    // Removing that device does not bring the old split back.
    const id = adopted.json().device.id;
    const target = accountChangeTarget({ action: 'remove-device', id });
    const proof = await accountProof(t, token, WALLET, { action: 'remove-device', target });
    await t.post(`/api/wallet/devices/${id}/remove`, { proof }, { token });
    expect((await t.get('/api/wallet', { token })).json()).toMatchObject({
      devices: 0,
      legacyAuthShare: null,
    });
  });

  it('gives a legacy auth share until the next rotation of the recovery pair, and never after', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    await legacyWallet(db(), t, token, randomShare());
    const rotated = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet/shares',
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${token}` },
      payload: await signedRotation(t, token, WALLET, { expectedGeneration: 1, authShare: randomShare() }),
    });
    expect(rotated.statusCode).toBe(200);
    expect((await t.get('/api/wallet', { token })).json()).toMatchObject({
      generation: 2,
      legacyAuthShare: null,
    });
  });

  it('replaces only the recovery pair at a rotation: every device still opens the wallet with its own share', async () => {
    const t = await createTestApp(db());
    const { token, device } = await owner(t);
    const second = testDevice();
    const other = (await enroll(t, token, second)).json().device;
    const rotated = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet/shares',
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${token}` },
      payload: await signedRotation(t, token, WALLET, { expectedGeneration: 1, authShare: randomShare() }),
    });
    expect(rotated.statusCode).toBe(200);
    const first = await unlockDevice(t, token, device.id, device.secret);
    expect(first.json()).toMatchObject({ generation: 2, authShare: device.authShare });
    expect((await unlockDevice(t, token, other.id, second.secret)).json().authShare).toBe(second.authShare);
    expect((await t.get('/api/wallet', { token })).json().devices).toBe(2);
  });

  it('lists no devices, and enrolls none, for a user without a wallet', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    expect((await t.get('/api/wallet/devices', { token })).json()).toEqual({ devices: [] });
    const challenge = await requestChallenge(t, token, 'enroll-device');
    const response = await t.post(
      '/api/wallet/devices',
      {
        address: WALLET.address,
        how: 'recovered',
        device: deviceOf(testDevice()),
        proof: { challenge, signature: `0x${'1'.repeat(130)}` },
      },
      { token },
    );
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('wallet_not_found');
  });
});

describe.each(DIALECTS)('migration 0014 (wallet devices) on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('marks every wallet that exists as a legacy split, and none registered after', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo('0013_account_ownership')).error).toBeUndefined();
    const created_at = '2030-01-01T12:00:00.000Z';
    await db().insertInto('users').values({ id: 'u1', created_at }).execute();
    await db()
      .insertInto('wallets')
      .values({
        user_id: 'u1',
        address: WALLET.address,
        auth_share_ciphertext: 'AAAA',
        iv: 'AAAAAAAAAAAAAAAA',
        key_version: 1,
        created_at,
      } as never)
      .execute();
    await migrateToLatest(db());
    expect(await db().selectFrom('wallets').select(['user_id', 'legacy_split']).execute()).toEqual([
      { user_id: 'u1', legacy_split: 1 },
    ]);
    await db().insertInto('users').values({ id: 'u2', created_at }).execute();
    await saveWallet(
      db(),
      new Uint8Array(32),
      { userId: 'u2', address: testWallet(2).address, authShare: new Uint8Array(33) },
      new Date(created_at),
    );
    expect(
      await db().selectFrom('wallets').select('legacy_split').where('user_id', '=', 'u2').execute(),
    ).toEqual([{ legacy_split: 0 }]);
  });
});

/** A device as the routes take it. */
function deviceOf(device: TestDevice) {
  return { authShare: device.authShare, secretHash: device.secretHash };
}

/** Stores the first test wallet for this session's user as one registered before devices. */
async function legacyWallet(db: Kysely<Database>, t: TestApp, token: string, share: string): Promise<void> {
  const userId = await userIdOf(t, token);
  await saveWallet(
    db,
    deriveKey(t.config.shareEncryptionKey, 'dial/auth-share'),
    { userId, address: WALLET.address, authShare: decodeShare(share) },
    t.clock.now(),
  );
  await db.updateTable('wallets').set({ legacy_split: 1 }).where('user_id', '=', userId).execute();
}
