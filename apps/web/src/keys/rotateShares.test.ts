import { combineWalletShares, decodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HeldDevice } from './deviceRecords';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY, UNOPENED_PASSWORD_RECORD } from './testing/testWallet';

/**
 * Setting up or changing recovery: a new recovery pair, sent with the key rebuilt through this browser's
 * device, against the real server through the stubbed fetch, over an in-memory stand-in for the device
 * store. The browser tests run the same code against the real store and server.
 */
const memory = await vi.hoisted(async () =>
  (await import('./testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('./deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('./legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('./deviceStore');
const { unlockDevice } = await import('./deviceApi');
const { commitRotation, prepareRotation } = await import('./rotateShares');

const dialServer = withDialServer();
/** The signed-in user's id, as the server gave it. */
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;
const RECOVERY = UNOPENED_PASSWORD_RECORD;

/** The wallet, registered with this browser as its device, and a second device (another browser). */
async function twoDevices() {
  const server = dialServer();
  const { device: here } = await server.register(KEY);
  await deviceStore.save(USER, here);
  const other = await server.enroll(KEY, 'recovered');
  return { server, here, other };
}

/** A new recovery pair from generation `from`, and its recovery share as `protect` was given it. */
async function prepared(from = 1) {
  let recoveryShare = new Uint8Array();
  const pending = await prepareRotation(USER, ADDRESS, from, KEY, async (share) => {
    recoveryShare = new Uint8Array(share);
    return RECOVERY;
  });
  return { pending, recoveryShare };
}

async function opens(device: HeldDevice): Promise<string> {
  const { authShare } = await unlockDevice(device.deviceId, device.secret);
  return combineWalletShares([new Uint8Array(device.heldShare), decodeShare(authShare)], ADDRESS);
}

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a new recovery pair', () => {
  it('is a split of the key whose recovery share is protected and not kept here; nothing is sent yet', async () => {
    const { server } = await twoDevices();
    const { pending, recoveryShare } = await prepared();
    expect(pending.body).toMatchObject({ expectedGeneration: 1, address: ADDRESS, recovery: RECOVERY });
    await expect(
      combineWalletShares([recoveryShare, decodeShare(pending.body.authShare)], ADDRESS),
    ).resolves.toBe(KEY);
    expect(server.count('PUT /api/wallet/shares')).toBe(0);
  });

  it("is sent with the key's proof rebuilt through this device, and every device still opens the wallet", async () => {
    const { server, here, other } = await twoDevices();
    const { pending } = await prepared();
    await expect(commitRotation(pending)).resolves.toBe(2);
    expect(server.count('PUT /api/wallet/shares', 200)).toBe(1);
    // The challenge was asked for just before the PUT, through the device unlocked just before it.
    const routes = server.answers.map((answer) => answer.route);
    expect(routes.slice(-3)).toEqual([
      `POST /api/wallet/devices/${here.deviceId}/unlock`,
      'POST /api/wallet/challenge',
      'PUT /api/wallet/shares',
    ]);
    expect(await server.wallet()).toMatchObject({
      generation: 2,
      recovery: { method: 'password' },
      devices: 2,
    });
    await expect(opens(here)).resolves.toBe(KEY);
    await expect(opens(other)).resolves.toBe(KEY);
  });

  it('waits for a code when the server wants one, then the same rotation is sent', async () => {
    const { server } = await twoDevices();
    const { pending } = await prepared();
    server.requireCode();
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'reauthentication_required' });
    await server.confirmCode();
    await expect(commitRotation(pending)).resolves.toBe(2);
  });

  it('is refused when recovery was changed meanwhile elsewhere (stale generation), the newer pair kept', async () => {
    const { server } = await twoDevices();
    const first = await prepared();
    const second = await prepared();
    await expect(commitRotation(first.pending)).resolves.toBe(2);
    await expect(commitRotation(second.pending)).rejects.toMatchObject({ code: 'stale_share_generation' });
    expect(server.count('PUT /api/wallet/shares', 200)).toBe(1);
  });

  it('is not sent from a browser removed from the wallet: its entry is forgotten', async () => {
    const { server, here } = await twoDevices();
    const { pending } = await prepared();
    await server.removeDevice(KEY, here.deviceId);
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'device_removed' });
    expect(memory.deviceId(USER)).toBeNull();
    expect(server.count('PUT /api/wallet/shares')).toBe(0);
  });

  it('is not sent from a browser that is no device of the wallet', async () => {
    const { server } = await twoDevices();
    memory.clear();
    const { pending } = await prepared();
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'device_share_missing' });
    expect(server.count('PUT /api/wallet/shares')).toBe(0);
  });
});
