import { describe, expect, it } from 'vitest';
import { createWalletShares } from './createWalletShares.js';
import { decodeShare } from './decodeShare.js';
import { encodeShare } from './encodeShare.js';

describe('encodeShare', () => {
  it.each([
    [[], ''],
    [[0x66], 'Zg=='],
    [[0x66, 0x6f], 'Zm8='],
    [[0x66, 0x6f, 0x6f], 'Zm9v'],
    [[0xfb, 0xff, 0xbf], '+/+/'],
    [[0, 0, 0], 'AAAA'],
  ])('writes %j as standard base64 %j', (bytes, text) => {
    expect(encodeShare(Uint8Array.from(bytes))).toBe(text);
  });

  it('writes a 33-byte share as 44 characters that decodeShare reads back', async () => {
    const { deviceShare } = await createWalletShares();
    const text = encodeShare(deviceShare);
    expect(text).toHaveLength(44);
    expect(text).toMatch(/^[A-Za-z0-9+/]+$/);
    expect(decodeShare(text)).toEqual(deviceShare);
  });

  it('round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(decodeShare(encodeShare(bytes))).toEqual(bytes);
  });
});
