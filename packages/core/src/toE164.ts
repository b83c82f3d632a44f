import type { PhoneValue } from './parsePhone.js';
import { callingCodeFor } from './phoneCountry.js';

/**
 * Writes a phone number in E.164: `+`, the calling code and the national significant number, no spaces.
 *
 * @param value - The phone number, as {@link parsePhone} returns it.
 * @returns The E.164 string, e.g. `'+12015550123'`.
 * @throws {DialError} `invalid_data` when `value.countryCode` is not a country the phone library knows.
 *
 * @example
 * ```ts
 * toE164({ countryCode: 'US', phone: '2015550123' }); // '+12015550123'
 * ```
 */
export function toE164(value: PhoneValue): string {
  return `+${callingCodeFor(value.countryCode)}${value.phone}`;
}
