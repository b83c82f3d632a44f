import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { PhoneValue } from './parsePhone.js';
import { callingCodeFor, supportedCountry } from './phoneCountry.js';

/**
 * Whether the phone library (with its mobile metadata) considers the number a valid number of its country.
 *
 * The number must match the country's numbering plan, and the library must place it in that very country:
 * `{ countryCode: 'CA', phone: '2015550123' }` is a valid US number, so it is not valid for `CA`. Numbers the
 * numbering plans reserve for fiction, such as the UK's 07700 900xxx, are not valid.
 *
 * @param value - The phone number, as {@link parsePhone} returns it.
 * @returns `true` when the number is valid for `value.countryCode`; `false` otherwise, also for an unknown
 * country or a `phone` that is not only digits.
 *
 * @example
 * ```ts
 * isValidPhone({ countryCode: 'GB', phone: '7400123456' }); // true
 * isValidPhone({ countryCode: 'GB', phone: '7400' }); // false
 * ```
 */
export function isValidPhone(value: PhoneValue): boolean {
  if (supportedCountry(value.countryCode) === undefined || !/^\d+$/.test(value.phone)) return false;
  const parsed = parsePhoneNumberFromString(`+${callingCodeFor(value.countryCode)}${value.phone}`);
  if (parsed === undefined) return false;
  return (
    parsed.isValid() &&
    parsed.country === value.countryCode.toUpperCase() &&
    // A stored national prefix ('07400…') would be dropped by the library and make toE164 wrong.
    parsed.nationalNumber === value.phone
  );
}
