import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../connect/testing/announceWallet';
import { rememberCountry } from './countryList';
import { initialCountry } from './initialCountry';

/** A browser whose languages are `languages`. */
function browserIn(...languages: string[]) {
  vi.stubGlobal('navigator', { languages, language: languages[0] });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the country a phone field starts with', () => {
  it('is the person’s own number’s country, before the last one picked and the browser’s', () => {
    browserIn('en-US');
    const storage = memoryStorage();
    rememberCountry('FR', storage);
    expect(initialCountry('+447400123456', storage)).toBe('GB');
    expect(initialCountry('+4915123456789', storage)).toBe('DE');
    expect(initialCountry('+14162345678', storage)).toBe('CA');
    expect(initialCountry('+12125550123', storage)).toBe('US');
  });

  it('is the main country of a calling code shared with places on its plan', () => {
    // +44 7911 is Guernsey's range: the person's country shows as the United Kingdom.
    expect(initialCountry('+447911123456', memoryStorage())).toBe('GB');
  });

  it('is the last country picked when the person has no number (an e-mail or wallet sign-in)', () => {
    browserIn('en-GB');
    const storage = memoryStorage();
    rememberCountry('DE', storage);
    rememberCountry('FR', storage);
    expect(initialCountry(null, storage)).toBe('FR');
    expect(initialCountry(undefined, storage)).toBe('FR');
  });

  it('is the browser’s language region when no country was picked, else the United States', () => {
    browserIn('de-AT', 'de');
    expect(initialCountry(null, memoryStorage())).toBe('AT');
    browserIn('fr');
    expect(initialCountry(null, memoryStorage())).toBe('FR');
    browserIn('es-419');
    expect(initialCountry(null, memoryStorage())).toBe('US');
  });

  it('ignores a stored value that is not a country, and picks that are not countries', () => {
    browserIn('en-GB');
    const storage = memoryStorage();
    rememberCountry('XX', storage);
    expect(initialCountry(null, storage)).toBe('GB');
    storage.setItem('dial.lastCountry', '<script>');
    expect(initialCountry(null, storage)).toBe('GB');
  });

  it('falls back to the browser’s region where storage is blocked', () => {
    browserIn('en-IE');
    const blocked = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    expect(() => rememberCountry('FR', blocked)).not.toThrow();
    expect(initialCountry(null, blocked)).toBe('IE');
  });
});
