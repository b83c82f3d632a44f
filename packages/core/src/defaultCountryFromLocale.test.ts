import { describe, expect, it } from 'vitest';
import { defaultCountryFromLocale } from './defaultCountryFromLocale.js';

describe('defaultCountryFromLocale', () => {
  it.each([
    [['en-GB'], 'GB'],
    [['en-GB', 'en-US'], 'GB'],
    [['pt-BR'], 'BR'],
    [['fr-CA'], 'CA'],
    [['zh-Hant-TW'], 'TW'],
  ])('takes the region written in %j', (locales, country) => {
    expect(defaultCountryFromLocale(locales)).toBe(country);
  });

  it.each([
    [['fr'], 'FR'],
    [['de'], 'DE'],
    [['ja'], 'JP'],
    [['en'], 'US'],
  ])('takes the likely region of a bare language %j', (locales, country) => {
    expect(defaultCountryFromLocale(locales)).toBe(country);
  });

  it('skips regions that are not countries', () => {
    expect(defaultCountryFromLocale(['es-419', 'en-001', 'fr-FR'])).toBe('FR');
  });

  it('skips malformed tags', () => {
    expect(defaultCountryFromLocale(['not a locale!', 'de-AT'])).toBe('AT');
  });

  it('gives US when no locale has a known region', () => {
    expect(defaultCountryFromLocale([])).toBe('US');
    expect(defaultCountryFromLocale(['es-419', '!!'])).toBe('US');
  });
});
