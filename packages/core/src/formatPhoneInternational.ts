import type { PhoneValue } from './parsePhone.js';
import { callingCodeFor } from './phoneCountry.js';

/**
 * Writes a phone number for people to read: `+`, the calling code, a space, then the national significant
 * number as it is stored (no grouping of its digits).
 *
 * @param value - The phone number, as {@link parsePhone} returns it.
 * @returns The number, e.g. `'+1 2015550123'`.
 * @throws {DialError} `invalid_data` when `value.countryCode` is not a country the phone library knows.
 *
 * @example
 * ```ts
 * formatPhoneInternational({ countryCode: 'US', phone: '2015550123' }); // '+1 2015550123'
 * formatPhoneInternational({ countryCode: 'GB', phone: '7400123456' }); // '+44 7400123456'
 * ```
 */
export function formatPhoneInternational(value: PhoneValue): string {
  return `+${callingCodeFor(value.countryCode)} ${value.phone}`;
}
