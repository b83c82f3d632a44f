import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { normalizeOnrampAmount } from './normalizeOnrampAmount.js';

describe('normalizeOnrampAmount', () => {
  it('keeps decimal strings and adds the leading zero', () => {
    expect(normalizeOnrampAmount('.5')).toBe('0.5');
    expect(normalizeOnrampAmount('100')).toBe('100');
    expect(normalizeOnrampAmount('0.000001')).toBe('0.000001');
  });

  it('reads any number of decimals: the asset is not known here', () => {
    expect(normalizeOnrampAmount('0.0000000000000000001')).toBe('0.0000000000000000001');
  });

  it.each(['', '0', '0.0', '-1', '1e3', '1.', '1,5', ' 1', 'abc'])(
    'refuses %j with invalid_data',
    (amount) => {
      let thrown: unknown;
      try {
        normalizeOnrampAmount(amount);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DialError);
      expect(thrown).toMatchObject({
        code: 'invalid_data',
        details: `not a positive decimal amount: ${JSON.stringify(amount)}`,
      });
    },
  );
});
