import { describe, expect, it } from 'vitest';
import {
  type EncryptedShare,
  entryKey,
  findEntry,
  generationsOf,
  keepOnlyEntry,
  removeEntry,
  shareAdditionalData,
  type UserShares,
} from './deviceShareRecords';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function entry(address: string, generation?: number): EncryptedShare {
  return {
    address,
    ...(generation !== undefined ? { generation } : {}),
    iv: new Uint8Array(12),
    ciphertext: new ArrayBuffer(49),
  };
}

/** A record as today's code wrote it before generations: keyed by lower-case address, no generation. */
function legacyRecord(): UserShares {
  return { userId: 'u1', shares: { [ADDRESS.toLowerCase()]: entry(ADDRESS) } };
}

describe('device share records', () => {
  it('reads an entry written before generations as generation 1', () => {
    const record = legacyRecord();
    expect(findEntry(record, ADDRESS, 1)).toBe(record.shares[ADDRESS.toLowerCase()]);
    expect(findEntry(record, ADDRESS.toLowerCase(), 1)).toBeDefined();
    expect(findEntry(record, ADDRESS, 2)).toBeUndefined();
    expect(generationsOf(record, ADDRESS)).toEqual([1]);
  });

  it('keeps the old and the new generation side by side during a rotation, then only the new one', () => {
    const record = legacyRecord();
    // The rotation saves generation 2 before the server takes it…
    record.shares[entryKey(ADDRESS, 2)] = entry(ADDRESS, 2);
    expect(generationsOf(record, ADDRESS)).toEqual([1, 2]);
    // …so whichever generation the server answers with, its share is here.
    expect(findEntry(record, ADDRESS, 1)).toBeDefined();
    expect(findEntry(record, ADDRESS, 2)?.generation).toBe(2);
    // After the server took it: only generation 2 stays.
    keepOnlyEntry(record, ADDRESS, 2);
    expect(Object.keys(record.shares)).toEqual([entryKey(ADDRESS, 2)]);
    expect(findEntry(record, ADDRESS, 1)).toBeUndefined();
  });

  it('forgets a refused new generation and keeps the current one', () => {
    const record = legacyRecord();
    record.shares[entryKey(ADDRESS, 2)] = entry(ADDRESS, 2);
    removeEntry(record, ADDRESS, 2);
    expect(generationsOf(record, ADDRESS)).toEqual([1]);
  });

  it('keepOnly drops other wallets too (a wallet the server never registered)', () => {
    const record: UserShares = {
      userId: 'u1',
      shares: { [entryKey(ADDRESS, 3)]: entry(ADDRESS, 3), [entryKey(OTHER, 1)]: entry(OTHER, 1) },
    };
    keepOnlyEntry(record, ADDRESS.toLowerCase(), 3);
    expect(Object.keys(record.shares)).toEqual([entryKey(ADDRESS, 3)]);
    expect(generationsOf(record, OTHER)).toEqual([]);
  });

  it('binds new entries to the generation and keeps the old additional data for old entries', () => {
    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    expect(decode(shareAdditionalData('u1', ADDRESS, undefined))).toEqual([
      'dial-device-share',
      1,
      'u1',
      ADDRESS.toLowerCase(),
    ]);
    expect(decode(shareAdditionalData('u1', ADDRESS, 2))).toEqual([
      'dial-device-share',
      2,
      'u1',
      ADDRESS.toLowerCase(),
      2,
    ]);
  });
});
