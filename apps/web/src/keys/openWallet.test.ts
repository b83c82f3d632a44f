import { combineWalletShares, decodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HeldDevice } from './deviceRecords';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY, UNOPENED_PASSWORD_RECORD } from './testing/testWallet';

/**
 * Opening the wallet through this browser's device, against the real server (its device, wallet and
 * registration routes) through the stubbed fetch, over an in-memory stand-in for the IndexedDB device store
 * that seals and opens entries as the real one does. "Another browser" is a device made through the API
 * with the wallet's key, whose entry the test moves into this browser's store to play that browser. The
 * browser tests run the same code in Chromium, with two browsers.
 */
const memory = await vi.hoisted(async () =>
  (await import('./testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('./deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('./legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('./deviceStore');
const { unlockDevice } = await import('./deviceApi');
const { openWallet } = await import('./openWallet');
const { keyFromDevice } = await import('./rebuildKey');
const { onDeviceRemoved } = await import('./deviceRemoval');

const dialServer = withDialServer();
/** The signed-in user's id, as the server gave it. */
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;
const open = () => openWallet(USER, () => {});
const unlockRoute = (device: HeldDevice) => `POST /api/wallet/devices/${device.deviceId}/unlock`;

/** This browser is `device` (the only device it keeps for the user). */
async function beDevice(device: HeldDevice) {
  memory.clear();
  await deviceStore.save(USER, device);
}

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('creating the wallet', () => {
  it('registers the recovery pair and this browser as its first device, keeps the device, then opens through it', async () => {
    const server = dialServer();
    const created = await open();
    if ('needsRecovery' in created) throw new Error('expected a wallet');
    expect(created).toMatchObject({ generation: 1, recovery: null });
    expect(memory.deviceId(USER)).toBe(created.deviceId);
    expect(memory.hasPending(USER)).toBe(false);
    // The device kept here and its auth share on the server rebuild the registered address's key.
    const device = (await deviceStore.load(USER))!;
    expect(device.address).toBe(created.address);
    const wallet = await server.wallet();
    expect(wallet).toMatchObject({ address: created.address, devices: 1, legacyAuthShare: null });

    const before = server.count('GET /api/wallet');
    await expect(open()).resolves.toEqual(created);
    // One request opens it: the unlock answers the wallet too.
    expect(server.count(unlockRoute(device), 200)).toBe(1);
    expect(server.count('GET /api/wallet')).toBe(before);
  });

  it('completes a registration whose answer was lost: the next opening finds the device by its secret', async () => {
    const server = dialServer();
    const passOn = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init) => {
      const answer = await passOn(input, init);
      if (init?.method === 'POST' && String(input) === '/api/wallet') throw new TypeError('Failed to fetch');
      return answer;
    });
    await expect(open()).rejects.toMatchObject({ code: 'network_error' });
    // The server registered the wallet and its device; this browser kept the device as pending.
    expect(server.count('POST /api/wallet', 201)).toBe(1);
    expect(memory.deviceId(USER)).toBeNull();
    expect(memory.hasPending(USER)).toBe(true);

    server.fetch.mockImplementation(passOn);
    const opened = await open();
    if ('needsRecovery' in opened) throw new Error('expected the wallet to open');
    expect(memory.hasPending(USER)).toBe(false);
    expect(memory.deviceId(USER)).toBe(opened.deviceId);
    // No second wallet, no second device: the one the server made is this browser's.
    expect(server.count('POST /api/wallet')).toBe(1);
    expect(await server.wallet()).toMatchObject({ address: opened.address, devices: 1 });
  });
});

describe('opening through a device', () => {
  it('two devices of one wallet each open it, alternately, whatever the other does (no lock-out)', async () => {
    const server = dialServer();
    const { device: a } = await server.register(KEY);
    const b = await server.enroll(KEY, 'recovered');
    for (const device of [a, b, a]) {
      await beDevice(device);
      await expect(open()).resolves.toMatchObject({ address: ADDRESS, deviceId: device.deviceId });
    }
    // Recovery changed on one of them replaces the recovery pair only: both still open it.
    await server.setRecovery(KEY, async () => UNOPENED_PASSWORD_RECORD);
    for (const device of [b, a]) {
      await beDevice(device);
      await expect(open()).resolves.toMatchObject({ deviceId: device.deviceId, generation: 2 });
    }
  });

  it('refuses a device removed on another one, says so, and forgets its entry', async () => {
    const server = dialServer();
    const { device: a } = await server.register(KEY);
    await server.enroll(KEY, 'recovered');
    await server.removeDevice(KEY, a.deviceId);
    await beDevice(a);
    await expect(open()).resolves.toMatchObject({
      needsRecovery: true,
      removed: true,
      wallet: { address: ADDRESS, devices: 1 },
    });
    expect(server.count(unlockRoute(a), 403)).toBe(1);
    expect(memory.deviceId(USER)).toBeNull();
    // Its held share rebuilds nothing with any auth share the server still gives this session.
    const wallet = await server.wallet();
    expect(wallet.legacyAuthShare).toBeNull();
  });

  it('still says this browser was removed when a signing found it so first (its entry is gone by then)', async () => {
    const server = dialServer();
    const { device: a } = await server.register(KEY);
    await server.enroll(KEY, 'recovered');
    await beDevice(a);
    await server.removeDevice(KEY, a.deviceId);
    const reported = vi.fn();
    const stop = onDeviceRemoved(reported);
    await expect(keyFromDevice(USER)).rejects.toMatchObject({
      code: 'device_removed',
      message: expect.stringContaining('This browser was removed from your wallet on another device.'),
    });
    stop();
    expect(reported).toHaveBeenCalledOnce();
    expect(memory.deviceId(USER)).toBeNull();
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, removed: true });
  });

  it('treats a device the server does not know as none (and forgets it)', async () => {
    const server = dialServer();
    const { device } = await server.register(KEY);
    await beDevice({ ...device, deviceId: '6f1c2a4e-3b5d-4c7e-8f90-1a2b3c4d5e6f' });
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, removed: false });
    expect(memory.deviceId(USER)).toBeNull();
  });

  it('refuses a device entry with another secret as unknown: the auth share goes only to the right secret', async () => {
    const server = dialServer();
    const { device } = await server.register(KEY);
    const { secret } = await deviceStore.newSecret();
    await beDevice({ ...device, secret });
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, removed: false });
    expect(server.count(unlockRoute(device), 404)).toBe(1);
  });

  it("does not open another user's device entry moved into this user's slot", async () => {
    const { device } = await dialServer().register(KEY);
    await deviceStore.save('another-user', device);
    memory.move('another-user', USER);
    // It no longer decrypts (bound to the other user): as if none were kept.
    await expect(deviceStore.load(USER)).resolves.toBeNull();
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, removed: false });
  });

  it('without a device here, says where the wallet opens: recovery if set up, else the devices that hold it', async () => {
    const server = dialServer();
    await server.register(KEY);
    await expect(open()).resolves.toMatchObject({
      needsRecovery: true,
      removed: false,
      wallet: { recovery: null, devices: 1 },
    });
    await server.setRecovery(KEY, async () => UNOPENED_PASSWORD_RECORD);
    await expect(open()).resolves.toMatchObject({
      needsRecovery: true,
      wallet: { recovery: { method: 'password' }, devices: 1 },
    });
  });
});

describe('a wallet registered before devices', () => {
  it("adopts this browser's old share as a device: enrolled with the key's proof, the old entries deleted", async () => {
    const server = dialServer();
    // The recovery pair's held share stands for the old device share of the wallet's one split.
    const { recoveryPair } = await server.register(KEY);
    await server.makeLegacy();
    expect((await server.wallet()).legacyAuthShare).not.toBeNull();
    memory.putLegacy(USER, ADDRESS, crypto.getRandomValues(new Uint8Array(33)));
    memory.putLegacy(USER, ADDRESS, recoveryPair.heldShare);

    const opened = await open();
    if ('needsRecovery' in opened) throw new Error('expected the wallet to open');
    expect(server.answers.find((a) => a.route === 'POST /api/wallet/devices')).toMatchObject({
      status: 201,
      body: { device: { how: 'adopted' } },
    });
    expect(memory.deviceId(USER)).toBe(opened.deviceId);
    expect(memory.legacyCount(USER)).toBe(0);
    // The server gives the old split's auth share no more.
    expect(await server.wallet()).toMatchObject({ legacyAuthShare: null, devices: 1 });
    // This device's shares rebuild the key.
    const device = (await deviceStore.load(USER))!;
    const { authShare } = await unlockDevice(device.deviceId, device.secret);
    await expect(combineWalletShares([device.heldShare, decodeShare(authShare)], ADDRESS)).resolves.toBe(KEY);
  });

  it('completes an adoption whose enrolment answer was lost, at the next opening', async () => {
    const server = dialServer();
    const { recoveryPair } = await server.register(KEY);
    await server.makeLegacy();
    memory.putLegacy(USER, ADDRESS, recoveryPair.heldShare);
    const passOn = server.fetch.getMockImplementation()!;
    server.fetch.mockImplementation(async (input, init) => {
      const answer = await passOn(input, init);
      if (init?.method === 'POST' && String(input) === '/api/wallet/devices')
        throw new TypeError('Failed to fetch');
      return answer;
    });
    await expect(open()).rejects.toMatchObject({ code: 'network_error' });
    // The server enrolled the device (and gives the old split's auth share no more); this browser kept it
    // as pending, and still its old share.
    expect(server.count('POST /api/wallet/devices', 201)).toBe(1);
    expect(memory.hasPending(USER)).toBe(true);
    expect(memory.deviceId(USER)).toBeNull();

    server.fetch.mockImplementation(passOn);
    const opened = await open();
    if ('needsRecovery' in opened) throw new Error('expected the wallet to open');
    expect(memory.deviceId(USER)).toBe(opened.deviceId);
    expect(memory.hasPending(USER)).toBe(false);
    expect(memory.legacyCount(USER)).toBe(0);
    expect(await server.wallet()).toMatchObject({ devices: 1, legacyAuthShare: null });
  });

  it('does not adopt a share that does not combine with the old auth share', async () => {
    const server = dialServer();
    await server.register(KEY);
    await server.makeLegacy();
    memory.putLegacy(USER, ADDRESS, crypto.getRandomValues(new Uint8Array(33)));
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, removed: false });
    expect(server.count('POST /api/wallet/devices')).toBe(0);
  });
});
