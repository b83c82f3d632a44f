import { DialError } from './errors.js';
import { isValidEmail } from './isValidEmail.js';

/**
 * Puts an e-mail address in the form Dial stores and compares: trimmed and lower-cased.
 *
 * @param input - What the person typed.
 * @returns The normalized address.
 * @throws {DialError} `invalid_email` when it is not a plausible address (see {@link isValidEmail}).
 *
 * @example
 * ```ts
 * normalizeEmail('  Ada.Lovelace@Example.COM '); // 'ada.lovelace@example.com'
 * ```
 */
export function normalizeEmail(input: string): string {
  if (!isValidEmail(input)) throw new DialError('invalid_email');
  return input.trim().toLowerCase();
}
