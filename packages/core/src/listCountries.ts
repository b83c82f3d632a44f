import { countryCallingCodes, knownCountry } from './countryCallingCodes.js';

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

/** The flag emoji of a country: the two regional-indicator symbols of its ISO code, e.g. `'🇬🇧'` for `'GB'`. */
export function countryFlag(code: string): string {
  return String.fromCodePoint(...[...code].map((letter) => REGIONAL_INDICATOR_A + letter.charCodeAt(0) - 65));
}

/** The display names of regions in `locale` ('en' when left out or not a valid tag), and the tag used. */
function regionNames(locale: string | undefined): { names: Intl.DisplayNames; tag: string } {
  const tag = locale ?? 'en';
  try {
    return { names: new Intl.DisplayNames([tag], { type: 'region' }), tag };
  } catch {
    // A malformed tag (RangeError) should not break a sign-in form: fall back to English.
    return { names: new Intl.DisplayNames(['en'], { type: 'region' }), tag: 'en' };
  }
}

function describe(code: string, callCode: string, names: Intl.DisplayNames): Country {
  return { code, callCode, name: names.of(code) ?? code, flag: countryFlag(code) };
}

/**
 * Every country the phone library knows, named in a locale (by `Intl.DisplayNames`) and sorted by that name
 * in that locale. Naming and sorting some 245 countries takes a while on a slow phone: a picker lists them
 * when it opens; one country is {@link countryFor}. Needs none of the phone library's metadata.
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
  const { names, tag } = regionNames(locale);
  const collator = new Intl.Collator(tag);
  return [...countryCallingCodes()]
    .map(([code, callCode]) => describe(code, callCode, names))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * One country as {@link listCountries} describes it (named in `locale`), without listing them all.
 *
 * @param code - ISO 3166-1 alpha-2 code, any case.
 * @param locale - As for {@link listCountries}.
 * @returns The country, or `undefined` when the phone library does not know it.
 *
 * @example
 * ```ts
 * countryFor('gb'); // { code: 'GB', callCode: '44', name: 'United Kingdom', flag: '🇬🇧' }
 * ```
 */
export function countryFor(code: string, locale?: string): Country | undefined {
  const known = knownCountry(code);
  if (known === undefined) return undefined;
  return describe(known, countryCallingCodes().get(known)!, regionNames(locale).names);
}
