import { combineWalletShares, createWalletShares, decodeShare, encodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitId } from './deviceShareRecords';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY, UNOPENED_PASSWORD_RECORD } from './testing/testWallet';

/**
 * The rotation's decisions (which device shares stay after each answer of the server) over an in-memory
 * stand-in for the IndexedDB store that uses the real record logic; the answers come from the real server,
 * which the stubbed fetch sends the requests to. The browser tests run the same code against the real
 * store and server.
 */
const memory = await vi.hoisted(async () => (await import('./testing/memoryShareStore')).memoryShareStore());
vi.mock('./deviceShareStore', () => ({ deviceShareStore: memory.store }));

const { deviceShareStore } = await import('./deviceShareStore');
const { commitRotation, prepareRotation } = await import('./rotateShares');

const dialServer = withDialServer();
/** The signed-in user's id, as the server gave it. */
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;
const RECOVERY = UNOPENED_PASSWORD_RECORD;

/** This browser holds the device share of the wallet's first split, which the server holds. */
async function firstSplit() {
  const first = await createWalletShares(KEY);
  const slot = { address: ADDRESS, generation: 1, split: await splitId(first.authShare) };
  const entry = await deviceShareStore.save(USER, slot, first.deviceShare);
  const server = dialServer();
  await server.hold({ key: KEY, authShare: encodeShare(first.authShare), generation: 1, recovery: null });
  return { first, entry, server };
}

async function prepared() {
  const setup = await firstSplit();
  const pending = await prepareRotation(USER, ADDRESS, 1, KEY, async () => RECOVERY);
  return { ...setup, pending };
}

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('share rotation', () => {
  it('saves the new device share before the PUT, beside the old one, named by its split', async () => {
    const { pending, entry } = await prepared();
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
    expect(pending.generation).toBe(2);
    expect(pending.split).toBe(await splitId(decodeShare(pending.body.authShare)));
    expect(memory.keys(USER)).toEqual([entry, pending.entry].sort());
    expect(pending.body).toMatchObject({ expectedGeneration: 1, address: ADDRESS, recovery: RECOVERY });
    // The new device share and the new auth share rebuild the key; the old device share does not.
    const newDevice = (await deviceShareStore.load(USER, pending.entry))!;
    const newAuth = decodeShare(pending.body.authShare);
    await expect(combineWalletShares([newDevice, newAuth], ADDRESS)).resolves.toBe(KEY);
    const oldDevice = (await deviceShareStore.load(USER, entry))!;
    await expect(combineWalletShares([oldDevice, newAuth], ADDRESS)).rejects.toMatchObject({
      code: 'wallet_mismatch',
    });
  });

  it('keeps only the new share once the server took the rotation', async () => {
    const { pending, server } = await prepared();
    await expect(commitRotation(pending)).resolves.toBe(2);
    const [path, init] = server.fetch.mock.calls[1]!;
    expect(path).toBe('/api/wallet/shares');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ ...pending.body, proof: expect.any(Object) });
    expect(memory.keys(USER)).toEqual([pending.entry]);
  });

  it("signs the change with the wallet's key over a challenge the server issued just before", async () => {
    const { pending, server } = await prepared();
    await expect(commitRotation(pending)).resolves.toBe(2);
    const [challengePath, challengeInit] = server.fetch.mock.calls[0]!;
    expect(`${challengeInit?.method} ${String(challengePath)}`).toBe('POST /api/wallet/challenge');
    expect(JSON.parse(String(challengeInit?.body))).toEqual({ purpose: 'rotate-shares' });
    const sent = JSON.parse(String(server.fetch.mock.calls[1]![1]?.body));
    expect(sent.proof).toEqual({
      challenge: (server.answers[0]!.body as { challenge: string }).challenge,
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    });
    // The server took it only because the signature recovered to the wallet over exactly these shares.
    expect((await server.wallet()).authShare).toBe(pending.body.authShare);
  });

  it("forgets the new share when the server refuses the key's proof (it holds another wallet)", async () => {
    const { pending, server, entry } = await prepared();
    // No route replaces a wallet's address: the server's database is changed behind its back.
    const other = '0x0000000000000000000000000000000000000001';
    await server.db.updateTable('wallets').set({ address: other }).where('user_id', '=', USER).execute();
    const elsewhere = { ...pending, body: { ...pending.body, address: other } };
    await expect(commitRotation(elsewhere)).rejects.toMatchObject({ code: 'wallet_proof_invalid' });
    expect(memory.keys(USER)).toEqual([entry]);
  });

  it('keeps both when the answer is lost (the server may have taken it)', async () => {
    const { pending } = await prepared();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'network_error' });
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
  });

  it('keeps both when a code is needed first, so the same rotation can be sent again', async () => {
    const { pending, server } = await prepared();
    server.requireCode();
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'reauthentication_required' });
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
    await server.confirmCode();
    await expect(commitRotation(pending)).resolves.toBe(2);
    expect(memory.keys(USER)).toEqual([pending.entry]);
  });

  it('forgets the new share when another device rotated first, keeping the current one', async () => {
    const { pending, server, entry } = await prepared();
    // Another tab's pending split of the same generation stays: only the refused one goes.
    const other = await prepareRotation(USER, ADDRESS, 1, KEY, async () => RECOVERY);
    // Another device replaces the shares first (the same key, a new split).
    const elsewhere = await createWalletShares(KEY);
    await server.hold({
      key: KEY,
      authShare: encodeShare(elsewhere.authShare),
      generation: 2,
      recovery: null,
    });
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'stale_share_generation' });
    expect(memory.keys(USER)).toEqual([entry, other.entry].sort());
  });

  it('sends nothing when the pending device share is gone meanwhile, so the wallet is never left without one', async () => {
    const { pending, server, entry } = await prepared();
    server.requireCode();
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'reauthentication_required' });
    expect(server.count('PUT /api/wallet/shares')).toBe(1);
    // While the person fetches the code, the new share disappears (another tab, cleared data).
    await deviceShareStore.discard(USER, pending.entry);
    await server.confirmCode();
    const failure = commitRotation(pending);
    await expect(failure).rejects.toMatchObject({ code: 'device_share_missing' });
    await expect(failure).rejects.toThrow(/nothing was changed/);
    // No PUT went out: the server still holds the first split, whose share this browser still has.
    expect(server.count('PUT /api/wallet/shares')).toBe(1);
    expect((await server.wallet()).generation).toBe(1);
    expect(memory.keys(USER)).toEqual([entry]);
  });

  it('sends nothing when the stored pending share does not rebuild the key with the new auth share', async () => {
    const { pending, server, first } = await prepared();
    // The pending entry now holds another split's device share (e.g. written over by an older version).
    memory.put(
      USER,
      pending.entry,
      { address: ADDRESS, generation: 2, split: pending.split },
      first.deviceShare,
    );
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'device_share_missing' });
    expect(server.count('PUT /api/wallet/shares')).toBe(0);
  });

  it('two tabs setting up recovery at once keep separate shares of generation 2; the loser sends nothing', async () => {
    const { server } = await firstSplit();
    const a = await prepareRotation(USER, ADDRESS, 1, KEY, async () => RECOVERY);
    const b = await prepareRotation(USER, ADDRESS, 1, KEY, async () => RECOVERY);
    expect(a.generation).toBe(b.generation);
    expect(a.entry).not.toBe(b.entry);
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
    expect(memory.keys(USER)).toHaveLength(3);

    await expect(commitRotation(a)).resolves.toBe(2);
    // A's success forgot B's split of the same generation: B stops before sending (it would be stale).
    await expect(commitRotation(b)).rejects.toMatchObject({ code: 'device_share_missing' });
    expect(server.count('PUT /api/wallet/shares')).toBe(1);

    // The share kept is the one of the split the server holds: it rebuilds the key.
    expect(memory.keys(USER)).toEqual([a.entry]);
    const device = (await deviceShareStore.load(USER, a.entry))!;
    await expect(
      combineWalletShares([device, decodeShare((await server.wallet()).authShare)], ADDRESS),
    ).resolves.toBe(KEY);
  });
});
