import type { Country } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { countryLabel, filterCountries, formatCallCode } from './countryOptions';

const countries: Country[] = [
  { code: 'AU', callCode: '61', name: 'Australia', flag: '🇦🇺' },
  { code: 'CI', callCode: '225', name: 'Côte d’Ivoire', flag: '🇨🇮' },
  { code: 'DE', callCode: '49', name: 'Germany', flag: '🇩🇪' },
  { code: 'GG', callCode: '44', name: 'Guernsey', flag: '🇬🇬' },
  { code: 'IM', callCode: '44', name: 'Isle of Man', flag: '🇮🇲' },
  { code: 'JE', callCode: '44', name: 'Jersey', flag: '🇯🇪' },
  { code: 'RU', callCode: '7', name: 'Russia', flag: '🇷🇺' },
  { code: 'GB', callCode: '44', name: 'United Kingdom', flag: '🇬🇧' },
  { code: 'US', callCode: '1', name: 'United States', flag: '🇺🇸' },
];
const codes = (list: Country[]) => list.map((country) => country.code);

describe('filterCountries', () => {
  it('returns every country, in order, for an empty or blank search', () => {
    expect(codes(filterCountries(countries, '  '))).toEqual(codes(countries));
  });

  it('finds countries by calling code with or without + or 00', () => {
    const uk = ['GG', 'IM', 'JE', 'GB'];
    expect(codes(filterCountries(countries, '44'))).toEqual(uk);
    expect(codes(filterCountries(countries, '+44'))).toEqual(uk);
    expect(codes(filterCountries(countries, '0044'))).toEqual(uk);
    expect(codes(filterCountries(countries, '+49'))).toEqual(['DE']);
  });

  it('matches calling codes by prefix, so "+4" lists +44 and +49', () => {
    expect(codes(filterCountries(countries, '+4'))).toEqual(['DE', 'GG', 'IM', 'JE', 'GB']);
  });

  it('puts the ISO code first, then names starting with the text, then names containing it', () => {
    expect(codes(filterCountries(countries, 'us'))).toEqual(['US', 'AU', 'RU']);
    expect(codes(filterCountries(countries, 'GB'))).toEqual(['GB']);
  });

  it('finds a name by a word inside it, ignoring case', () => {
    expect(codes(filterCountries(countries, 'KING'))).toEqual(['GB']);
    expect(codes(filterCountries(countries, 'man'))).toEqual(['IM', 'DE']);
  });

  it('ignores accents', () => {
    expect(codes(filterCountries(countries, 'cote'))).toEqual(['CI']);
  });

  it('finds nothing for text no country matches', () => {
    expect(filterCountries(countries, 'atlantis')).toEqual([]);
  });
});

describe('countryLabel', () => {
  it('reads flag, name and calling code', () => {
    expect(countryLabel(countries[7]!)).toBe('🇬🇧 United Kingdom +44');
  });
});

describe('formatCallCode', () => {
  it('adds exactly one plus sign', () => {
    expect(formatCallCode('44')).toBe('+44');
    expect(formatCallCode('+44')).toBe('+44');
  });
});
