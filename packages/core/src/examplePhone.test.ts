import { getCountries } from 'libphonenumber-js/mobile';
import { describe, expect, it } from 'vitest';
import { examplePhone } from './examplePhone.js';
import { isValidPhone } from './isValidPhone.js';
import { parsePhone } from './parsePhone.js';

describe('examplePhone', () => {
  it.each([
    ['GB', '07400 123456'],
    ['US', '(201) 555-0123'],
    ['FR', '06 12 34 56 78'],
  ])('gives the national example mobile number of %s', (countryCode, text) => {
    expect(examplePhone(countryCode)).toBe(text);
  });

  it('gives, for every country, a number that parses as a valid number of that country', () => {
    for (const countryCode of getCountries()) {
      const example = examplePhone(countryCode);
      expect(example, countryCode).not.toBe('');
      expect(isValidPhone(parsePhone(example, countryCode)), `${countryCode}: ${example}`).toBe(true);
    }
  });

  it('gives an empty string for a country the library does not know', () => {
    expect(examplePhone('XX')).toBe('');
    expect(examplePhone('')).toBe('');
  });
});
