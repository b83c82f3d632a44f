import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/mobile';
import { describe, expect, it } from 'vitest';
import { countryCallingCodes, knownCountry } from './countryCallingCodes.js';
import { supportedCountry } from './phoneCountry.js';

describe('the countries and calling codes without the phone library', () => {
  it('are exactly the phone library’s, in its order', () => {
    expect([...countryCallingCodes()]).toEqual(
      getCountries().map((code) => [code, getCountryCallingCode(code)]),
    );
  });

  it('know a country exactly when the phone library does', () => {
    const candidates = ['gb', 'GB', 'Us', 'XK', 'XX', 'EU', 'UK', '', 'G', 'GBR', '<script>', 'AC', 'ZZ'];
    for (let first = 65; first <= 90; first++) {
      for (let second = 65; second <= 90; second++) candidates.push(String.fromCharCode(first, second));
    }
    for (const code of candidates) {
      expect(knownCountry(code), code).toBe(supportedCountry(code));
      expect(knownCountry(code) !== undefined, code).toBe(isSupportedCountry(code.toUpperCase()));
    }
    expect(knownCountry(undefined)).toBeUndefined();
  });
});
