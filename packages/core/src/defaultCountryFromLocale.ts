import { knownCountry } from './countryCallingCodes.js';

/**
 * Picks the country a phone field should start with from the person's languages (e.g.
 * `navigator.languages`): the region of the first locale that has one the phone library knows, either written
 * in the tag (`'en-GB'` → `GB`) or its likely region (`'fr'` → `FR`, by `Intl.Locale#maximize`). Malformed
 * tags and regions that are not countries (`'es-419'`) are skipped.
 *
 * @param locales - BCP 47 language tags, most preferred first.
 * @returns An ISO 3166-1 alpha-2 code; `'US'` when no locale gives one.
 *
 * @example
 * ```ts
 * defaultCountryFromLocale(['en-GB', 'en']); // 'GB'
 * defaultCountryFromLocale(['fr']); // 'FR'
 * defaultCountryFromLocale([]); // 'US'
 * ```
 */
export function defaultCountryFromLocale(locales: readonly string[]): string {
  for (const tag of locales) {
    let locale: Intl.Locale;
    try {
      locale = new Intl.Locale(tag);
    } catch {
      continue;
    }
    const country = knownCountry(locale.region ?? locale.maximize().region);
    if (country !== undefined) return country;
  }
  return 'US';
}
