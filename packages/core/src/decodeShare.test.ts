import { describe, expect, it } from 'vitest';
import { decodeShare } from './decodeShare.js';
import { DialError } from './errors.js';

describe('decodeShare', () => {
  it('reads standard base64', () => {
    expect(decodeShare('Zm9v')).toEqual(Uint8Array.from([0x66, 0x6f, 0x6f]));
    expect(decodeShare('Zm8=')).toEqual(Uint8Array.from([0x66, 0x6f]));
    expect(decodeShare('Zg==')).toEqual(Uint8Array.from([0x66]));
    expect(decodeShare('+/+/')).toEqual(Uint8Array.from([0xfb, 0xff, 0xbf]));
  });

  it('gives a Uint8Array, not a Node Buffer', () => {
    expect(Object.getPrototypeOf(decodeShare('AAAA'))).toBe(Uint8Array.prototype);
  });

  it.each([
    ['an empty string', ''],
    ['characters outside base64', 'Zm9v!'],
    ['base64url characters', '-_-_'],
    ['missing padding', 'Zm8'],
    ['too much padding', 'Zg==='],
    ['padding in the middle', 'Zg==Zm9v'],
    ['whitespace', 'Zm9v Zm9v'],
    ['a newline', 'Zm9v\n'],
  ])('refuses %s with invalid_data', (_label, text) => {
    expect(() => decodeShare(text)).toThrow(DialError);
    expect(() => decodeShare(text)).toThrow(expect.objectContaining({ code: 'invalid_data' }));
  });

  it('refuses a value that is not a string with invalid_data', () => {
    expect(() => decodeShare(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_data' }),
    );
  });
});
