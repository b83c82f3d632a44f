import type { Country } from '@dial/core';
import { countryFor, defaultCountryFromLocale, knownCountry, listCountries } from '@dial/core';
import { useEffect, useState } from 'react';

// No phone library here: this module is part of the sign-in form's first load (importGraph.test.ts), and
// the library loads after the form shows (loadPhoneLibrary.ts).

let countries: Country[] | undefined;
const found = new Map<string, Country | undefined>();
/** Whether a country was named already: the browser's region names are loaded, naming another is quick. */
let named = false;

/**
 * Every country, named in the browser's language and sorted by name (computed once). Naming and sorting
 * them all takes tens of milliseconds on a slow phone: only a country picker that opens asks for them.
 */
export function getCountries(): Country[] {
  countries ??= listCountries(browserLocales()[0]);
  named = true;
  return countries;
}

/** The country with this ISO code (as written: 'GB', not 'gb'), if Dial knows it; as getCountries has it. */
export function findCountry(code: string): Country | undefined {
  if (!found.has(code)) {
    const country = countries?.find((known) => known.code === code) ?? countryFor(code, browserLocales()[0]);
    found.set(code, country?.code === code ? country : undefined);
    named = true;
  }
  return found.get(code);
}

/** Whether Dial knows a country by this ISO code (as written: 'GB', not 'gb'), without naming it. */
export function isCountry(code: string): boolean {
  return knownCountry(code) === code;
}

/**
 * The country's name (as `findCountry` gives it), for a component. The first name of a page is given after
 * the first render: naming a country loads the browser's region names, which takes tens of milliseconds on
 * a slow phone, and the sign-in form does not wait for it (until then: undefined). Then at once.
 */
export function useCountryName(code: string): string | undefined {
  const [, setNamed] = useState(named);
  useEffect(() => {
    if (named) return;
    // After the first paint, not in the commit's task: the form is usable before the names load.
    const timer = setTimeout(() => {
      findCountry(code);
      setNamed(true);
    }, 0);
    return () => clearTimeout(timer);
  }, [code]);
  return named ? findCountry(code)?.name : undefined;
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

export type CountryStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Remembers the country a person picked, for the phone fields' next start. */
export function rememberCountry(code: string, storage?: CountryStorage): void {
  try {
    if (isCountry(code)) (storage ?? localStorage).setItem(LAST_COUNTRY_KEY, code);
  } catch {
    // Storage blocked (or none, in Node): the fields start with the usual default.
  }
}

/**
 * The country a phone field starts with when the person's own number does not say (initialCountry.ts):
 * the last one picked on this browser, else the browser's language region, else the United States.
 */
export function startingCountry(storage?: CountryStorage): string {
  let last: string | null = null;
  try {
    last = (storage ?? localStorage).getItem(LAST_COUNTRY_KEY);
  } catch {
    // As above.
  }
  for (const code of [last ?? '', defaultCountryFromLocale(browserLocales())]) {
    if (isCountry(code)) return code;
  }
  return 'US';
}

function browserLocales(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}
