import { DialError } from './errors.js';
import { readOnrampAmount } from './readOnrampAmount.js';

/**
 * Writes an amount the way the provider reads it: a decimal string with a digit before the point, so
 * `.5` becomes `0.5`. Anything that is not a positive decimal number is refused ({@link readOnrampAmount},
 * without an asset's decimals).
 *
 * @throws {DialError} `invalid_data` for an empty, negative, zero or non-decimal amount.
 *
 * @example
 * ```ts
 * normalizeOnrampAmount('.5'); // '0.5'
 * normalizeOnrampAmount('25'); // '25'
 * ```
 */
export function normalizeOnrampAmount(amount: string): string {
  const reading = readOnrampAmount(amount);
  if (!reading.ok) {
    throw new DialError('invalid_data', {
      details: `not a positive decimal amount: ${JSON.stringify(amount)}`,
    });
  }
  return reading.amount;
}
