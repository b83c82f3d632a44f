import type { Country } from '@dial/core';
import { defaultCountryFromLocale, formatPhoneInput, listCountries } from '@dial/core';

let countries: Country[] | undefined;

/** Every country, named in the browser's language and sorted by name (computed once). */
export function getCountries(): Country[] {
  countries ??= listCountries(browserLocales()[0]);
  return countries;
}

/** The country with this ISO code, if Dial knows it. */
export function findCountry(code: string): Country | undefined {
  return getCountries().find((country) => country.code === code);
}

/** The country's name, or its code when it is unknown. */
export function countryName(code: string): string {
  return findCountry(code)?.name ?? code;
}

/**
 * The last country picked in a phone field (sign-in, send, settings), in localStorage: sign-out leaves it,
 * so the next sign-in on this browser starts with it. Only a country code: nothing about who picked it.
 */
const LAST_COUNTRY_KEY = 'dial.lastCountry';

type CountryStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Remembers the country a person picked, for the phone fields' next start. */
export function rememberCountry(code: string, storage?: CountryStorage): void {
  try {
    if (findCountry(code)) (storage ?? localStorage).setItem(LAST_COUNTRY_KEY, code);
  } catch {
    // Storage blocked (or none, in Node): the fields start with the usual default.
  }
}

/**
 * The country a phone field starts with: the person's own (their number's, given for the send form), else
 * the last one picked on this browser, else the browser's language region, else the United States.
 */
export function initialCountry(ownPhone?: string | null, storage?: CountryStorage): string {
  let last: string | null = null;
  try {
    last = (storage ?? localStorage).getItem(LAST_COUNTRY_KEY);
  } catch {
    // As above.
  }
  for (const code of [
    ownPhone ? formatPhoneInput(ownPhone, '').countryCode : '',
    last ?? '',
    defaultCountryFromLocale(browserLocales()),
  ]) {
    if (findCountry(code)) return code;
  }
  return 'US';
}

function browserLocales(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}
