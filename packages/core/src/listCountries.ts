import { getCountries, getCountryCallingCode } from 'libphonenumber-js/mobile';

/** A country of the phone library, for a country picker. */
export interface Country {
  /** ISO 3166-1 alpha-2 code, e.g. `'GB'`. */
  code: string;
  /** The calling code as digits, without `+`, e.g. `'44'`. */
  callCode: string;
  /** The country's name in the requested locale, e.g. `'United Kingdom'`. */
  name: string;
  /** The flag emoji, made of the two regional-indicator symbols of the code, e.g. `'🇬🇧'`. */
  flag: string;
}

const REGIONAL_INDICATOR_A = 0x1f1e6;

function flagOf(code: string): string {
  return String.fromCodePoint(...[...code].map((letter) => REGIONAL_INDICATOR_A + letter.charCodeAt(0) - 65));
}

/**
 * Every country the phone library knows, named in a locale (by `Intl.DisplayNames`) and sorted by that name
 * in that locale.
 *
 * @param locale - A BCP 47 language tag such as `'fr'` or `'pt-BR'`; `'en'` when left out or not a valid tag.
 * @returns The countries, sorted by name.
 *
 * @example
 * ```ts
 * const gb = listCountries('fr').find((country) => country.code === 'GB');
 * // { code: 'GB', callCode: '44', name: 'Royaume-Uni', flag: '🇬🇧' }
 * ```
 */
export function listCountries(locale?: string): Country[] {
  let names: Intl.DisplayNames;
  let tag = locale ?? 'en';
  try {
    names = new Intl.DisplayNames([tag], { type: 'region' });
  } catch {
    // A malformed tag (RangeError) should not break a sign-in form: fall back to English.
    tag = 'en';
    names = new Intl.DisplayNames([tag], { type: 'region' });
  }
  const collator = new Intl.Collator(tag);
  return getCountries()
    .map((code) => ({
      code,
      callCode: getCountryCallingCode(code),
      name: names.of(code) ?? code,
      flag: flagOf(code),
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
