import { describe, expect, it } from 'vitest';
import { maskIdentifier } from './maskIdentifier.js';

describe('maskIdentifier', () => {
  it('keeps the last four characters once dashes are removed', () => {
    expect(maskIdentifier('555-123-4567')).toBe('*4567');
    expect(maskIdentifier('555-12-3-4')).toBe('*1234');
  });

  it('ignores spaces as well', () => {
    expect(maskIdentifier('+44 7400 123 456')).toBe('*3456');
  });

  it('keeps letters and other characters', () => {
    expect(maskIdentifier('ACCT-00AB12')).toBe('*AB12');
  });

  it('keeps what there is of an identifier shorter than four characters', () => {
    expect(maskIdentifier('12')).toBe('*12');
    expect(maskIdentifier('')).toBe('*');
  });
});
