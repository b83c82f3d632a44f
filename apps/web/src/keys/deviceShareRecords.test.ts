import { describe, expect, it } from 'vitest';
import { type EncryptedShare, entriesOf, shareAdditionalData, type UserShares } from './deviceShareRecords';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function entry(address: string, generation?: number, split?: string): EncryptedShare {
  return {
    address,
    ...(generation !== undefined ? { generation } : {}),
    ...(split !== undefined ? { split } : {}),
    iv: new Uint8Array(12),
    ciphertext: new ArrayBuffer(49),
  };
}

describe('the device shares kept before devices', () => {
  it("lists a wallet's entries of every format, newest generation first, and no other wallet's", () => {
    const record: UserShares = {
      userId: 'u1',
      shares: {
        [ADDRESS.toLowerCase()]: entry(ADDRESS),
        [`${ADDRESS.toLowerCase()}#3#abcd`]: entry(ADDRESS, 3, 'abcd'),
        [`${ADDRESS.toLowerCase()}#2`]: entry(ADDRESS.toLowerCase(), 2),
        [`${OTHER.toLowerCase()}#4#ef01`]: entry(OTHER, 4, 'ef01'),
      },
    };
    expect(entriesOf(record, ADDRESS).map((found) => found.generation ?? 1)).toEqual([3, 2, 1]);
    expect(entriesOf(record, OTHER)).toHaveLength(1);
    expect(entriesOf(undefined, ADDRESS)).toEqual([]);
  });

  it('reads each entry with the additional data it was written with', () => {
    const text = (found: EncryptedShare) =>
      JSON.parse(new TextDecoder().decode(shareAdditionalData('u1', found)));
    const lower = ADDRESS.toLowerCase();
    expect(text(entry(ADDRESS))).toEqual(['dial-device-share', 1, 'u1', lower]);
    expect(text(entry(ADDRESS, 2))).toEqual(['dial-device-share', 2, 'u1', lower, 2]);
    expect(text(entry(ADDRESS, 3, 'abcd'))).toEqual(['dial-device-share', 3, 'u1', lower, 3, 'abcd']);
  });
});
