import { getExampleNumber } from 'libphonenumber-js/mobile';
import examples from 'libphonenumber-js/mobile/examples';
import { supportedCountry } from './phoneCountry.js';

/**
 * The phone library's example mobile number for a country, formatted as a national number: a placeholder
 * for a phone field. Importing this brings about 10 KB of example numbers into a bundle.
 *
 * @param countryCode - ISO 3166-1 alpha-2 code of the country.
 * @returns The example number, e.g. `'07400 123456'` for `GB`, or `''` when the library has none.
 *
 * @example
 * ```ts
 * examplePhone('GB'); // '07400 123456'
 * examplePhone('US'); // '(201) 555-0123'
 * ```
 */
export function examplePhone(countryCode: string): string {
  const country = supportedCountry(countryCode);
  if (country === undefined) return '';
  return getExampleNumber(country, examples)?.formatNational() ?? '';
}
