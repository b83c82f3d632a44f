import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../crypto/deriveKey.js';
import { generateCode, hashCode } from './otpCodes.js';

describe('generateCode', () => {
  it('makes 6 digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // 2000 draws from a million: a handful of repeats at most, never a constant.
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });
});

describe('hashCode', () => {
  const key = deriveKey(new Uint8Array(randomBytes(32)), 'dial/otp');
  const slot = {
    purpose: 'sign-in' as const,
    channel: 'email' as const,
    identifier: 'ada@example.com',
    deviceHash: 'a'.repeat(64),
  };

  it('is an HMAC-SHA256 in hex, the same for the same input', () => {
    expect(hashCode(key, slot, '123456')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCode(key, slot, '123456')).toBe(hashCode(key, slot, '123456'));
  });

  it('binds the code to its purpose, channel, identifier, browser and key', () => {
    const hash = hashCode(key, slot, '123456');
    expect(hashCode(key, slot, '123457')).not.toBe(hash);
    expect(hashCode(key, { ...slot, purpose: 'reauth' }, '123456')).not.toBe(hash);
    expect(hashCode(key, { ...slot, purpose: 'link' }, '123456')).not.toBe(hash);
    expect(hashCode(key, { ...slot, identifier: 'grace@example.com' }, '123456')).not.toBe(hash);
    expect(hashCode(key, { ...slot, channel: 'sms' }, '123456')).not.toBe(hash);
    expect(hashCode(key, { ...slot, deviceHash: 'b'.repeat(64) }, '123456')).not.toBe(hash);
    expect(hashCode(deriveKey(new Uint8Array(32), 'dial/otp'), slot, '123456')).not.toBe(hash);
  });

  it('checks a code stored before codes had a purpose (no browser) with the input it was stored under', () => {
    const legacy = (identifier: string) =>
      createHmac('sha256', key).update(`email\n${identifier}\n123456`, 'utf8').digest('hex');
    expect(hashCode(key, { ...slot, deviceHash: '' }, '123456')).toBe(legacy('ada@example.com'));
    expect(hashCode(key, { ...slot, purpose: 'reauth', deviceHash: '' }, '123456')).toBe(
      legacy('reauth:ada@example.com'),
    );
  });

  it('hashes a link code with its purpose even without a browser: it is never read as a legacy code', () => {
    const noBrowser = { ...slot, deviceHash: '' };
    const link = hashCode(key, { ...noBrowser, purpose: 'link' }, '123456');
    expect(link).not.toBe(hashCode(key, noBrowser, '123456'));
    expect(link).toBe(
      createHmac('sha256', key).update('link\nemail\nada@example.com\n\n123456', 'utf8').digest('hex'),
    );
  });
});

describe('deriveKey', () => {
  it('derives different 32-byte keys per purpose', () => {
    const master = new Uint8Array(randomBytes(32));
    const otp = deriveKey(master, 'dial/otp');
    const share = deriveKey(master, 'dial/auth-share');
    expect(otp).toHaveLength(32);
    expect(otp.equals(share)).toBe(false);
    expect(otp.equals(Buffer.from(master))).toBe(false);
  });
});
