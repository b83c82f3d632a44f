import { describe, expect, it } from 'vitest';
import { shortenAddress } from './shortenAddress.js';

describe('shortenAddress', () => {
  it('keeps 0x and four characters, an ellipsis, and the last four', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266');
  });

  it('uses the single ellipsis character', () => {
    expect(shortenAddress('0x1234567890abcdef1234567890abcdef12345678')).toHaveLength(11);
  });

  it('returns short strings as they are', () => {
    expect(shortenAddress('0x12345678')).toBe('0x12345678');
    expect(shortenAddress('')).toBe('');
  });
});
