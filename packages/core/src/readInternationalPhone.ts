import { DialError } from './errors.js';
import { readE164 } from './readE164.js';

/**
 * Reads a phone number the server was sent or configured with into E.164: in international form only (`+` or
 * `00` first, as {@link readE164} reads it with no default country), never a national number read in a
 * guessed country, so that a number names the same line whoever sends it. The one reading of sign-in and
 * link identifiers, the recipient look-up, activity records and the `ALLOWLIST`; the web app turns what a
 * person types into international form with the country they picked before sending it.
 *
 * @param input - E.164, or an international number with spaces, dashes or `00`: `'+44 7400 123456'`.
 * @returns The number in E.164, e.g. `'+447400123456'`.
 * @throws {DialError} `invalid_phone` (with why in `details`) when the number is national, cannot be read or
 * is not a valid number of its country.
 *
 * @example
 * ```ts
 * readInternationalPhone('0044 7400 123456'); // '+447400123456'
 * readInternationalPhone('07400 123456'); // throws DialError invalid_phone: not in international form
 * ```
 */
export function readInternationalPhone(input: string): string {
  const phone = readE164(input, null);
  if (!phone.ok) throw new DialError('invalid_phone', { details: phone.details });
  return phone.e164;
}
