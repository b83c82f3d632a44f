// Internal helpers shared by the phone functions; not re-exported from index.ts.
import { type CountryCode, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/mobile';
import metadata from 'libphonenumber-js/mobile/metadata';
import { DialError } from './errors.js';

/** The phone library's country code for `code` (any case), or `undefined` when it does not know it. */
export function supportedCountry(code: string | undefined): CountryCode | undefined {
  if (typeof code !== 'string') return undefined;
  const upper = code.toUpperCase();
  return isSupportedCountry(upper) ? upper : undefined;
}

/** The calling code (digits, no '+') of a country; throws `invalid_data` for a country the library lacks. */
export function callingCodeFor(countryCode: string): string {
  const country = supportedCountry(countryCode);
  if (country === undefined) {
    throw new DialError('invalid_data', { details: `unknown country code: ${JSON.stringify(countryCode)}` });
  }
  return getCountryCallingCode(country);
}

/**
 * The country to use for a calling code when the number alone does not tell which country it belongs to:
 * `preferred` when it shares that calling code, else the library's main country for the calling code (the
 * first of the metadata's list, e.g. GB for 44, US for 1). `undefined` for non-geographic calling codes
 * (+800, +882, …) and unknown ones.
 */
export function countryForCallingCode(
  callingCode: string | undefined,
  preferred?: string,
): CountryCode | undefined {
  if (callingCode === undefined) return undefined;
  const countries = Object.hasOwn(metadata.country_calling_codes, callingCode)
    ? metadata.country_calling_codes[callingCode]
    : undefined;
  if (countries === undefined) return undefined;
  const preferredCountry = supportedCountry(preferred);
  if (preferredCountry !== undefined && countries.includes(preferredCountry)) return preferredCountry;
  return countries[0];
}
