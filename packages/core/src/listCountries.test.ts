import { getCountries } from 'libphonenumber-js/mobile';
import { describe, expect, it } from 'vitest';
import { countryFor, listCountries } from './listCountries.js';

describe('listCountries', () => {
  it('lists every country the phone library knows, once', () => {
    const codes = listCountries().map((country) => country.code);
    expect(codes.length).toBeGreaterThan(200);
    expect([...codes].sort()).toEqual([...getCountries()].sort());
  });

  it('describes the United Kingdom in English', () => {
    expect(listCountries('en').find((country) => country.code === 'GB')).toEqual({
      code: 'GB',
      callCode: '44',
      name: 'United Kingdom',
      flag: '🇬🇧',
    });
  });

  it('uses English when no locale is given', () => {
    expect(listCountries().find((country) => country.code === 'DE')?.name).toBe('Germany');
  });

  it('names countries in the requested locale', () => {
    const countries = listCountries('fr');
    expect(countries.find((country) => country.code === 'GB')?.name).toBe('Royaume-Uni');
    expect(countries.find((country) => country.code === 'DE')?.name).toBe('Allemagne');
  });

  it('falls back to English for a malformed locale', () => {
    expect(listCountries('not a locale!').find((country) => country.code === 'GB')?.name).toBe(
      'United Kingdom',
    );
  });

  it('gives every country a code, digits for a calling code, a name and a two-symbol flag', () => {
    for (const country of listCountries()) {
      expect(country.code).toMatch(/^[A-Z]{2}$/);
      expect(country.callCode).toMatch(/^[1-9]\d{0,2}$/);
      expect(country.name).not.toBe('');
      expect(country.name).not.toBe(country.code);
      expect([...country.flag]).toHaveLength(2);
    }
  });

  it('builds flags from regional-indicator symbols', () => {
    const flags = Object.fromEntries(listCountries().map((country) => [country.code, country.flag]));
    expect(flags.US).toBe('\u{1F1FA}\u{1F1F8}');
    expect(flags.FR).toBe('🇫🇷');
    expect(flags.JP).toBe('🇯🇵');
  });

  it('gives shared calling codes to every country that has them', () => {
    const callCodes = Object.fromEntries(listCountries().map((country) => [country.code, country.callCode]));
    expect([callCodes.US, callCodes.CA, callCodes.JM]).toEqual(['1', '1', '1']);
    expect([callCodes.GB, callCodes.GG, callCodes.JE, callCodes.IM]).toEqual(['44', '44', '44', '44']);
  });

  it.each(['en', 'fr', 'de', 'ja'])('sorts by name in the %s locale', (locale) => {
    const names = listCountries(locale).map((country) => country.name);
    const sorted = [...names].sort((a, b) => a.localeCompare(b, locale));
    expect(names).toEqual(sorted);
  });

  it('sorts accented names where the locale puts them', () => {
    // In French, "Égypte" sorts among the E's, not after Z as a plain code-unit sort would put it.
    const names = listCountries('fr').map((country) => country.name);
    expect(names.indexOf('Égypte')).toBeLessThan(names.indexOf('Espagne'));
    expect(names.indexOf('Égypte')).toBeGreaterThan(names.indexOf('Danemark'));
  });
});

describe('countryFor', () => {
  it('describes each country exactly as listCountries does, in the same locale', () => {
    for (const locale of [undefined, 'en', 'fr', 'de-AT', 'not a locale!']) {
      for (const country of listCountries(locale)) {
        expect(countryFor(country.code, locale)).toEqual(country);
        expect(countryFor(country.code.toLowerCase(), locale)).toEqual(country);
      }
    }
  });

  it('knows no country the phone library does not', () => {
    expect(countryFor('XX')).toBeUndefined();
    expect(countryFor('')).toBeUndefined();
  });
});
