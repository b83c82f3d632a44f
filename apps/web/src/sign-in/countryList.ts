import type { Country } from '@dial/core';
import { defaultCountryFromLocale, listCountries } from '@dial/core';

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

/** The country the phone field starts with: the browser's region, else the United States. */
export function initialCountry(): string {
  const code = defaultCountryFromLocale(browserLocales());
  return findCountry(code) ? code : 'US';
}

function browserLocales(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}
