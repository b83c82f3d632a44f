import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { readAddress } from './readAddress.js';

const CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('readAddress', () => {
  it('checksums an all-lower-case address', () => {
    expect(readAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
  });

  it('keeps a correctly checksummed address', () => {
    expect(readAddress(CHECKSUMMED)).toBe(CHECKSUMMED);
  });

  it.each([
    ['a wrong checksum', '0x8ba1f109551bD432803012645Ac136ddd64DBa72'],
    ['all upper case (a checksum that does not match)', `0x${CHECKSUMMED.slice(2).toUpperCase()}`],
    ['39 hex digits', CHECKSUMMED.slice(0, -1)],
    ['no 0x', CHECKSUMMED.slice(2)],
    ['a non-hex digit', `${CHECKSUMMED.slice(0, -1)}g`],
    ['spaces around it', ` ${CHECKSUMMED} `],
    ['nothing', ''],
  ])('refuses %s with invalid_data', (_name, text) => {
    let thrown: unknown;
    try {
      readAddress(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DialError);
    expect(thrown).toMatchObject({ code: 'invalid_data', details: 'address checksum' });
  });
});
