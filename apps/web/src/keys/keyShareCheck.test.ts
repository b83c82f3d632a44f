import { createWalletShares, encodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitId } from './deviceShareRecords';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from './testing/testWallet';

/**
 * The old-browser check against the real server (GET /api/wallet through the stubbed fetch) and the real
 * record logic over an in-memory store; the browser tests run it in Chromium with two browsers.
 */
const memory = await vi.hoisted(async () => (await import('./testing/memoryShareStore')).memoryShareStore());
vi.mock('./deviceShareStore', () => ({ deviceShareStore: memory.store }));

const { deviceShareStore } = await import('./deviceShareStore');
const { holdsCurrentShare, KEYS_CHANGED_MESSAGE, onKeysChanged } = await import('./keyShareCheck');
const { keyFromDeviceShare } = await import('./rebuildKey');

const dialServer = withDialServer();
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;

/** A split of the wallet's key at `generation`, its device share saved here when `saved`. */
async function split(generation: number, saved: boolean) {
  const shares = await createWalletShares(KEY);
  if (saved) {
    const slot = { address: ADDRESS, generation, split: await splitId(shares.authShare) };
    await deviceShareStore.save(USER, slot, shares.deviceShare);
  }
  return encodeShare(shares.authShare);
}

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('holdsCurrentShare', () => {
  it("is true while this browser holds the server's split, false once another device replaced it", async () => {
    const server = dialServer();
    await server.hold({ key: KEY, authShare: await split(2, true), generation: 2, recovery: null });
    await expect(holdsCurrentShare(USER)).resolves.toBe(true);

    // Recovered on another device: the server holds generation 3, whose device share is over there.
    await server.hold({ key: KEY, authShare: await split(3, false), generation: 3, recovery: null });
    await expect(holdsCurrentShare(USER)).resolves.toBe(false);
  });

  it('is false for another split of the same generation (a change here that never reached the server)', async () => {
    const server = dialServer();
    await split(2, true);
    await server.hold({ key: KEY, authShare: await split(2, false), generation: 2, recovery: null });
    await expect(holdsCurrentShare(USER)).resolves.toBe(false);
  });
});

describe('signing after the keys changed elsewhere', () => {
  it('says so, and tells the wallet screen, before any key is rebuilt', async () => {
    const server = dialServer();
    await server.hold({ key: KEY, authShare: await split(2, true), generation: 2, recovery: null });
    const authShare = await split(3, false);
    await server.hold({ key: KEY, authShare, generation: 3, recovery: null });
    const told = vi.fn();
    const stop = onKeysChanged(told);
    try {
      await expect(
        keyFromDeviceShare(USER, { address: ADDRESS, generation: 3, authShare }),
      ).rejects.toMatchObject({ code: 'device_share_missing', message: KEYS_CHANGED_MESSAGE });
      expect(told).toHaveBeenCalledOnce();
    } finally {
      stop();
    }
  });
});
