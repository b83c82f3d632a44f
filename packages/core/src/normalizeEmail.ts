import { DialError } from './errors.js';
import { isValidEmail } from './isValidEmail.js';

/**
 * Puts an e-mail address in the form Dial stores and compares: trimmed and lower-cased, after checking it is
 * a plain, strict address ({@link isValidEmail}: an RFC 5322 dot-atom local part, a host name, ASCII only,
 * no control characters), so that one stored identifier names exactly one mailbox.
 *
 * @param input - What the person typed.
 * @returns The normalized address.
 * @throws {DialError} `invalid_email` when it is not such an address (see {@link isValidEmail}).
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
