import { describe, expect, it } from 'vitest';
import {
  candidateKeys,
  type EncryptedShare,
  entryKey,
  generationsOf,
  otherShares,
  pruneEntries,
  pruneOlder,
  type ShareSlot,
  shareAdditionalData,
  splitId,
  type UserShares,
} from './deviceShareRecords';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function slot(generation: number, split: string, address = ADDRESS): ShareSlot {
  return { address, generation, split };
}

function entry(address: string, generation?: number, split?: string): EncryptedShare {
  return {
    address,
    ...(generation !== undefined ? { generation } : {}),
    ...(split !== undefined ? { split } : {}),
    iv: new Uint8Array(12),
    ciphertext: new ArrayBuffer(49),
  };
}

function record(shares: Record<string, EncryptedShare>): UserShares {
  return { userId: 'u1', shares };
}

/** A record as the code before generations wrote it: keyed by lower-case address, no generation. */
function legacyRecord(): UserShares {
  return record({ [ADDRESS.toLowerCase()]: entry(ADDRESS) });
}

/** A record as the code before split ids wrote it: keyed `address#generation`. */
function generationRecord(generation: number): UserShares {
  return record({ [`${ADDRESS.toLowerCase()}#${generation}`]: entry(ADDRESS, generation) });
}

describe('device share records', () => {
  it('names a split by a short hash of its auth share', async () => {
    const auth = new Uint8Array(33).fill(7);
    const id = await splitId(auth);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(await splitId(new Uint8Array(auth))).toBe(id);
    auth[32] = 8;
    expect(await splitId(auth)).not.toBe(id);
    expect(entryKey(slot(2, id))).toBe(`${ADDRESS.toLowerCase()}#2#${id}`);
  });

  it('still finds entries written before generations (generation 1) and before split ids', () => {
    const legacy = legacyRecord();
    expect(candidateKeys(legacy, slot(1, 'aaaa'))).toEqual([ADDRESS.toLowerCase()]);
    expect(candidateKeys(legacy, slot(1, 'aaaa', ADDRESS.toLowerCase()))).toEqual([ADDRESS.toLowerCase()]);
    expect(candidateKeys(legacy, slot(2, 'aaaa'))).toEqual([]);
    expect(generationsOf(legacy, ADDRESS)).toEqual([1]);

    const unnamed = generationRecord(3);
    expect(candidateKeys(unnamed, slot(3, 'aaaa'))).toEqual([`${ADDRESS.toLowerCase()}#3`]);
    expect(candidateKeys(unnamed, slot(2, 'aaaa'))).toEqual([]);
    expect(candidateKeys(undefined, slot(1, 'aaaa'))).toEqual([]);
  });

  it('keeps two splits of one generation apart and picks the one the server holds', () => {
    const shares = generationRecord(2);
    const a = entryKey(slot(2, 'aaaa'));
    const b = entryKey(slot(2, 'bbbb'));
    shares.shares[a] = entry(ADDRESS, 2, 'aaaa');
    shares.shares[b] = entry(ADDRESS, 2, 'bbbb');
    expect(a).not.toBe(b);
    // The named split first, then the entry written before split ids (which only rebuilding can judge);
    // the other named split never.
    expect(candidateKeys(shares, slot(2, 'bbbb'))).toEqual([b, `${ADDRESS.toLowerCase()}#2`]);
    expect(otherShares(shares, slot(2, 'bbbb'))).toEqual({ older: false, otherSplit: true });
    // The server holds a third split: only the unnamed entry is worth trying.
    expect(candidateKeys(shares, slot(2, 'cccc'))).toEqual([`${ADDRESS.toLowerCase()}#2`]);
  });

  it('says when an older generation is held (the keys were replaced elsewhere)', () => {
    const shares = legacyRecord();
    expect(otherShares(shares, slot(2, 'aaaa'))).toEqual({ older: true, otherSplit: false });
    expect(otherShares(shares, slot(1, 'aaaa'))).toEqual({ older: false, otherSplit: false });
    expect(otherShares(undefined, slot(1, 'aaaa'))).toEqual({ older: false, otherSplit: false });
  });

  it('opening prunes older generations but never a newer one another tab is about to send', () => {
    const current = entryKey(slot(2, 'aaaa'));
    const pending = entryKey(slot(3, 'bbbb'));
    const shares = record({
      [ADDRESS.toLowerCase()]: entry(ADDRESS),
      [current]: entry(ADDRESS, 2, 'aaaa'),
      [pending]: entry(ADDRESS, 3, 'bbbb'),
    });
    pruneEntries(shares, slot(2, 'aaaa'), current);
    expect(Object.keys(shares.shares).sort()).toEqual([current, pending].sort());
    // Once the server holds generation 3, generation 2 goes.
    pruneEntries(shares, slot(3, 'bbbb'), pending);
    expect(Object.keys(shares.shares)).toEqual([pending]);
  });

  it('prunes other splits and orphans of the server generation, and other wallets', () => {
    const kept = entryKey(slot(2, 'aaaa'));
    const shares = record({
      [kept]: entry(ADDRESS, 2, 'aaaa'),
      [entryKey(slot(2, 'bbbb'))]: entry(ADDRESS, 2, 'bbbb'),
      [`${ADDRESS.toLowerCase()}#2`]: entry(ADDRESS, 2),
      [entryKey(slot(1, 'cccc', OTHER))]: entry(OTHER, 1, 'cccc'),
      [entryKey(slot(5, 'dddd', OTHER))]: entry(OTHER, 5, 'dddd'),
    });
    pruneEntries(shares, slot(2, 'aaaa', ADDRESS.toLowerCase()), kept);
    expect(Object.keys(shares.shares)).toEqual([kept]);
    expect(generationsOf(shares, OTHER)).toEqual([]);
  });

  it('keeps an old-format entry that opened the wallet', () => {
    const shares = legacyRecord();
    pruneEntries(shares, slot(1, 'aaaa'), ADDRESS.toLowerCase());
    expect(Object.keys(shares.shares)).toEqual([ADDRESS.toLowerCase()]);
  });

  it('pruneOlder keeps the given generation and newer ones of every split', () => {
    const shares = record({
      [ADDRESS.toLowerCase()]: entry(ADDRESS),
      [entryKey(slot(2, 'aaaa'))]: entry(ADDRESS, 2, 'aaaa'),
      [entryKey(slot(2, 'bbbb'))]: entry(ADDRESS, 2, 'bbbb'),
      [entryKey(slot(3, 'cccc'))]: entry(ADDRESS, 3, 'cccc'),
      [entryKey(slot(3, 'cccc', OTHER))]: entry(OTHER, 3, 'cccc'),
    });
    pruneOlder(shares, ADDRESS, 2);
    expect(Object.keys(shares.shares).sort()).toEqual(
      [entryKey(slot(2, 'aaaa')), entryKey(slot(2, 'bbbb')), entryKey(slot(3, 'cccc'))].sort(),
    );
  });

  it('binds entries to their split, keeping the additional data older entries were written with', () => {
    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    const lower = ADDRESS.toLowerCase();
    expect(decode(shareAdditionalData('u1', { address: ADDRESS }))).toEqual([
      'dial-device-share',
      1,
      'u1',
      lower,
    ]);
    expect(decode(shareAdditionalData('u1', { address: ADDRESS, generation: 2 }))).toEqual([
      'dial-device-share',
      2,
      'u1',
      lower,
      2,
    ]);
    expect(decode(shareAdditionalData('u1', { address: ADDRESS, generation: 2, split: 'aaaa' }))).toEqual([
      'dial-device-share',
      3,
      'u1',
      lower,
      2,
      'aaaa',
    ]);
  });
});
