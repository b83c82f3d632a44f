import { createWalletShares, encodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitId } from './deviceShareRecords';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY, UNOPENED_PASSWORD_RECORD } from './testing/testWallet';

/**
 * Opening the wallet against what this browser holds: the in-memory stand-in for the IndexedDB store uses
 * the real record logic, and the real server answers (GET /api/wallet, PUT shares) through the stubbed
 * fetch. The browser tests run the same code against the real store and server.
 */
const memory = await vi.hoisted(async () => (await import('./testing/memoryShareStore')).memoryShareStore());
vi.mock('./deviceShareStore', () => ({ deviceShareStore: memory.store }));

const { deviceShareStore } = await import('./deviceShareStore');
const { openWallet } = await import('./openWallet');
const { commitRotation, prepareRotation } = await import('./rotateShares');

const dialServer = withDialServer();
/** The signed-in user's id, as the server gave it. */
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;
const PROTECTED = UNOPENED_PASSWORD_RECORD;
const open = () => openWallet(USER, () => {});

/** A split of the wallet's key at `generation`; its device share saved here under `save` (or not). */
async function split(generation: number, save: 'named' | 'unnamed' | 'none') {
  const shares = await createWalletShares(KEY);
  const slot = { address: ADDRESS, generation, split: await splitId(shares.authShare) };
  let entry: string | null = null;
  if (save === 'named') entry = await deviceShareStore.save(USER, slot, shares.deviceShare);
  if (save === 'unnamed') {
    // As the code before split ids wrote it.
    entry = `${ADDRESS.toLowerCase()}#${generation}`;
    memory.put(USER, entry, { address: ADDRESS, generation }, shares.deviceShare);
  }
  return { authShare: encodeShare(shares.authShare), deviceShare: shares.deviceShare, entry };
}

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('opening the wallet', () => {
  it('leaves a rotation pending in another tab alone, so that tab can still finish it', async () => {
    const first = await split(1, 'named');
    const server = dialServer();
    await server.hold({ key: KEY, authShare: first.authShare, generation: 1, recovery: null });
    // Tab A prepares "Set up recovery" and waits for a confirmation code…
    server.requireCode();
    const pending = await prepareRotation(USER, ADDRESS, 1, KEY, async () => PROTECTED);
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'reauthentication_required' });

    // …while tab B opens the wallet: it opens generation 1 and keeps A's generation 2.
    await expect(open()).resolves.toMatchObject({ address: ADDRESS, generation: 1 });
    expect(memory.keys(USER)).toEqual([first.entry, pending.entry].sort());

    // A gets its code and sends the rotation: the server and this browser agree on generation 2.
    await server.confirmCode();
    await expect(commitRotation(pending)).resolves.toBe(2);
    expect(memory.keys(USER)).toEqual([pending.entry]);
    await expect(open()).resolves.toMatchObject({
      address: ADDRESS,
      generation: 2,
      recovery: { method: 'password' },
    });
  });

  it('opens from records written before generations and before split ids', async () => {
    const shares = await createWalletShares(KEY);
    memory.put(USER, ADDRESS.toLowerCase(), { address: ADDRESS }, shares.deviceShare);
    await dialServer().hold({
      key: KEY,
      authShare: encodeShare(shares.authShare),
      generation: 1,
      recovery: null,
    });
    await expect(open()).resolves.toMatchObject({ generation: 1 });
    expect(memory.keys(USER)).toEqual([ADDRESS.toLowerCase()]);

    memory.clear();
    const unnamed = await split(4, 'unnamed');
    await dialServer().hold({ key: KEY, authShare: unnamed.authShare, generation: 4, recovery: PROTECTED });
    await expect(open()).resolves.toMatchObject({ generation: 4 });
  });

  it('picks the share of the split the server holds among two of the same generation', async () => {
    const ours = await split(2, 'named');
    const theirs = await split(2, 'named');
    await dialServer().hold({ key: KEY, authShare: theirs.authShare, generation: 2, recovery: null });
    await expect(open()).resolves.toMatchObject({ generation: 2 });
    // The other split cannot ever open it: forgotten.
    expect(memory.keys(USER)).toEqual([theirs.entry]);
    expect(ours.entry).not.toBe(theirs.entry);
  });

  it('says the wallet is open as soon as the key is rebuilt, then forgets the old shares before it settles', async () => {
    const old = await split(1, 'named');
    const current = await split(2, 'named');
    await dialServer().hold({ key: KEY, authShare: current.authShare, generation: 2, recovery: null });
    let heldWhenOpened: string[] = [];
    const opened = vi.fn((_wallet: unknown) => {
      heldWhenOpened = memory.keys(USER);
    });
    const result = await openWallet(USER, () => {}, opened);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(opened.mock.calls[0]![0]).toEqual(result);
    expect(result).toEqual({ address: ADDRESS, generation: 2, recovery: null });
    // The wallet could show while the older generation's share was still held; it is gone once settled.
    expect(heldWhenOpened).toEqual([old.entry, current.entry].sort());
    expect(memory.keys(USER)).toEqual([current.entry]);
  });

  it('sends a mismatched old-format share to recovery, and forgets it once recovered', async () => {
    // A rotation whose PUT never reached the server left its share under generation 2 (old format), and a
    // recovery on another device then made the server's generation 2.
    const orphan = await split(2, 'unnamed');
    const server = await split(2, 'none');
    await dialServer().hold({ key: KEY, authShare: server.authShare, generation: 2, recovery: PROTECTED });

    await expect(open()).resolves.toMatchObject({
      needsRecovery: true,
      hasMismatchedShare: true,
      hasOlderShare: false,
      wallet: { generation: 2 },
    });
    // Nothing is forgotten before the recovery succeeded.
    expect(memory.keys(USER)).toEqual([orphan.entry]);

    // The recovery password rebuilt the key here: the recovery's rotation goes through…
    const recovered = await prepareRotation(USER, ADDRESS, 2, KEY, async () => PROTECTED);
    await expect(commitRotation(recovered)).resolves.toBe(3);
    expect((await dialServer().wallet()).generation).toBe(3);
    // …and the share that did not match is gone; the wallet opens.
    expect(memory.keys(USER)).toEqual([recovered.entry]);
    await expect(open()).resolves.toMatchObject({ generation: 3 });
  });

  it('sends a share of another split of the current generation to recovery, not to a dead end', async () => {
    const orphan = await split(2, 'named');
    const server = await split(2, 'none');
    await dialServer().hold({ key: KEY, authShare: server.authShare, generation: 2, recovery: PROTECTED });
    await expect(open()).resolves.toMatchObject({ needsRecovery: true, hasMismatchedShare: true });
    expect(memory.keys(USER)).toEqual([orphan.entry]);
  });

  it('without recovery, a mismatched share is `wallet_mismatch` and a missing one `recovery_not_set_up`', async () => {
    await split(2, 'unnamed');
    const server = await split(2, 'none');
    await dialServer().hold({ key: KEY, authShare: server.authShare, generation: 2, recovery: null });
    await expect(open()).rejects.toMatchObject({ code: 'wallet_mismatch' });
    memory.clear();
    await expect(open()).rejects.toMatchObject({ code: 'recovery_not_set_up' });
  });

  it('after the keys were replaced elsewhere, says an older share is held', async () => {
    await split(1, 'named');
    const server = await split(2, 'none');
    await dialServer().hold({ key: KEY, authShare: server.authShare, generation: 2, recovery: PROTECTED });
    await expect(open()).resolves.toMatchObject({
      needsRecovery: true,
      hasOlderShare: true,
      hasMismatchedShare: false,
    });
  });
});
