import { combineWalletShares, createWalletShares, DialError, decodeShare } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type EncryptedShare,
  findEntry,
  generationsOf,
  keepOnlyEntry,
  removeEntry,
  type UserShares,
} from '../wallet/deviceShareRecords';

/**
 * The rotation's decisions (which device shares stay after each answer of the server) over an in-memory
 * stand-in for the IndexedDB store that uses the real record logic; the server's answers come from a
 * stubbed fetch that checks the request sent. The browser tests run the same code against the real store
 * and server.
 */
const records = new Map<string, UserShares>();
const plain = new Map<EncryptedShare, Uint8Array>();

vi.mock('../wallet/deviceShareStore', () => ({
  deviceShareStore: {
    async save(userId: string, address: string, share: Uint8Array, generation: number) {
      const record = records.get(userId) ?? { userId, shares: {} };
      removeEntry(record, address, generation);
      const entry: EncryptedShare = {
        address,
        generation,
        iv: new Uint8Array(12),
        ciphertext: new ArrayBuffer(0),
      };
      record.shares[`${address.toLowerCase()}#${generation}`] = entry;
      plain.set(entry, new Uint8Array(share));
      records.set(userId, record);
    },
    async load(userId: string, address: string, generation: number) {
      const entry = findEntry(records.get(userId), address, generation);
      return entry === undefined ? null : new Uint8Array(plain.get(entry)!);
    },
    async generations(userId: string, address: string) {
      return generationsOf(records.get(userId), address);
    },
    async discard(userId: string, address: string, generation: number) {
      const record = records.get(userId);
      if (record) removeEntry(record, address, generation);
    },
    async keepOnly(userId: string, address: string, generation: number) {
      const record = records.get(userId);
      if (record) keepOnlyEntry(record, address, generation);
    },
  },
}));

const { deviceShareStore } = await import('../wallet/deviceShareStore');
const { commitRotation, prepareRotation } = await import('./rotateShares');

const USER = 'user-1';
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RECOVERY = {
  method: 'password' as const,
  ciphertext: 'AAAA',
  kdf: { name: 'scrypt' as const, N: 2 ** 17, r: 8, p: 1, salt: 'AAAAAAAAAAAAAAAAAAAAAA==' },
};

function answer(status: number, body: unknown) {
  const fetch = vi.fn<typeof globalThis.fetch>(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function prepared() {
  const first = await createWalletShares(KEY);
  await deviceShareStore.save(USER, ADDRESS, first.deviceShare, 1);
  const pending = await prepareRotation(USER, ADDRESS, 1, KEY, async () => RECOVERY);
  return { first, pending };
}

beforeEach(() => {
  records.clear();
  plain.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('share rotation', () => {
  it('saves the new device share before the PUT, beside the old one', async () => {
    const { pending } = await prepared();
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
    expect(pending.generation).toBe(2);
    expect(pending.body).toMatchObject({ expectedGeneration: 1, address: ADDRESS, recovery: RECOVERY });
    // The new device share and the new auth share rebuild the key; the old device share does not.
    const newDevice = (await deviceShareStore.load(USER, ADDRESS, 2))!;
    const newAuth = decodeShare(pending.body.authShare);
    await expect(combineWalletShares([newDevice, newAuth], ADDRESS)).resolves.toBe(KEY);
    const oldDevice = (await deviceShareStore.load(USER, ADDRESS, 1))!;
    await expect(combineWalletShares([oldDevice, newAuth], ADDRESS)).rejects.toMatchObject({
      code: 'wallet_mismatch',
    });
  });

  it('keeps only the new share once the server took the rotation', async () => {
    const { pending } = await prepared();
    const fetch = answer(200, { address: ADDRESS, generation: 2 });
    await expect(commitRotation(pending)).resolves.toBe(2);
    const [path, init] = fetch.mock.calls[0]!;
    expect(path).toBe('/api/wallet/shares');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual(pending.body);
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([2]);
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
    const { pending } = await prepared();
    answer(403, new DialError('reauthentication_required').toBody());
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'reauthentication_required' });
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1, 2]);
    answer(200, { address: ADDRESS, generation: 2 });
    await expect(commitRotation(pending)).resolves.toBe(2);
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([2]);
  });

  it('forgets the new share when another device rotated first, keeping the current one', async () => {
    const { pending } = await prepared();
    answer(409, new DialError('stale_share_generation').toBody());
    await expect(commitRotation(pending)).rejects.toMatchObject({ code: 'stale_share_generation' });
    expect(await deviceShareStore.generations(USER, ADDRESS)).toEqual([1]);
  });
});
