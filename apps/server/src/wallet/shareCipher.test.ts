import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptAuthShare, encryptAuthShare } from './shareCipher.js';

const key = new Uint8Array(randomBytes(32));
const share = new Uint8Array(randomBytes(33));

describe('encryptAuthShare / decryptAuthShare', () => {
  it('round-trips a share for its user', () => {
    const encrypted = encryptAuthShare(key, share, 'user-1');
    expect(encrypted.keyVersion).toBe(1);
    expect(decryptAuthShare(key, encrypted, 'user-1')).toEqual(share);
  });

  it('uses a fresh nonce every time', () => {
    const a = encryptAuthShare(key, share, 'user-1');
    const b = encryptAuthShare(key, share, 'user-1');
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('fails for another user id (the additional authenticated data)', () => {
    const encrypted = encryptAuthShare(key, share, 'user-1');
    expect(() => decryptAuthShare(key, encrypted, 'user-2')).toThrow(/authenticate/);
  });

  it('fails under another key', () => {
    const encrypted = encryptAuthShare(key, share, 'user-1');
    expect(() => decryptAuthShare(new Uint8Array(randomBytes(32)), encrypted, 'user-1')).toThrow();
  });

  it('fails for a flipped bit in the ciphertext, the tag or the nonce', () => {
    const encrypted = encryptAuthShare(key, share, 'user-1');
    const flip = (base64: string, index: number) => {
      const bytes = Buffer.from(base64, 'base64');
      bytes[index] = (bytes[index] ?? 0) ^ 0x80;
      return bytes.toString('base64');
    };
    expect(() =>
      decryptAuthShare(key, { ...encrypted, ciphertext: flip(encrypted.ciphertext, 0) }, 'user-1'),
    ).toThrow();
    expect(() =>
      decryptAuthShare(key, { ...encrypted, ciphertext: flip(encrypted.ciphertext, 40) }, 'user-1'),
    ).toThrow();
    expect(() => decryptAuthShare(key, { ...encrypted, iv: flip(encrypted.iv, 0) }, 'user-1')).toThrow();
  });

  it('refuses an unknown key version', () => {
    const encrypted = encryptAuthShare(key, share, 'user-1');
    expect(() => decryptAuthShare(key, { ...encrypted, keyVersion: 2 }, 'user-1')).toThrow(/key version 2/);
  });

  it("binds a device's share to its user and its device: another device's row, another user's or the wallet's row does not decrypt it", () => {
    const encrypted = encryptAuthShare(key, share, 'user-1', 'device-a');
    expect(decryptAuthShare(key, encrypted, 'user-1', 'device-a')).toEqual(share);
    expect(() => decryptAuthShare(key, encrypted, 'user-1', 'device-b')).toThrow(/authenticate/);
    expect(() => decryptAuthShare(key, encrypted, 'user-2', 'device-a')).toThrow(/authenticate/);
    // Copied into `wallets` (read without a device), or the wallet's share copied into a device's row.
    expect(() => decryptAuthShare(key, encrypted, 'user-1')).toThrow(/authenticate/);
    const walletShare = encryptAuthShare(key, share, 'user-1');
    expect(() => decryptAuthShare(key, walletShare, 'user-1', 'device-a')).toThrow(/authenticate/);
  });
});
