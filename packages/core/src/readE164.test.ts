import { describe, expect, it } from 'vitest';
import { readE164 } from './readE164.js';

describe('readE164', () => {
  it.each([
    ['E.164', '+447400123456', 'GB', '+447400123456'],
    ['spaces', '+44 7400 123456', 'GB', '+447400123456'],
    ['00 and dashes', '0044-7400-123-456', 'GB', '+447400123456'],
    ['a full-width plus', '＋44 7400 123456', 'GB', '+447400123456'],
    ['leading spaces', '  +1 201 555 0123', 'US', '+12015550123'],
    ['a trunk prefix after the calling code', '+44 07400 123456', 'GB', '+447400123456'],
  ])('reads an international number with %s whatever the country', (_name, input, country, e164) => {
    for (const defaultCountry of [null, 'US', 'FR']) {
      expect(readE164(input, defaultCountry)).toEqual({ ok: true, e164, countryCode: country });
    }
  });

  it('reads a national number in the default country', () => {
    expect(readE164('07400 123456', 'GB')).toEqual({ ok: true, e164: '+447400123456', countryCode: 'GB' });
    expect(readE164('(201) 555-0123', 'US')).toEqual({ ok: true, e164: '+12015550123', countryCode: 'US' });
  });

  it('takes the country from a national number when it is not the default one', () => {
    expect(readE164('416 234 5678', 'US')).toEqual({ ok: true, e164: '+14162345678', countryCode: 'CA' });
  });

  it.each([
    ['a national number', '2015550123'],
    ['a national number with its trunk prefix', '07400 123456'],
    ['a plus after other characters', '(+44) 7400 123456'],
  ])('refuses %s when only international numbers are read', (_name, input) => {
    expect(readE164(input, null)).toEqual({
      ok: false,
      countryCode: undefined,
      details: 'not in international form',
    });
  });

  it.each([
    ['too short a number', '+44123', 'GB'],
    ['a UK number reserved for fiction', '+447700900123', 'GB'],
    ['a trunk prefix the country does not drop', '+39 0 612345678', 'IT'],
  ])('refuses %s, naming the country it was read as', (_name, input, countryCode) => {
    expect(readE164(input, null)).toEqual({
      ok: false,
      countryCode,
      details: `not a valid number of ${countryCode}`,
    });
  });

  it.each([
    ['letters', 'call me', 'phone number has characters other than digits'],
    ['too many digits', '+4474001234567890', 'phone number has more than 15 digits'],
    ['a number of no country', '+800 1234 5678', 'calling code +800 belongs to no country'],
    ['nothing but a plus', '+', 'phone number is empty'],
  ])('refuses %s, with no country', (_name, input, details) => {
    expect(readE164(input, 'GB')).toEqual({ ok: false, countryCode: undefined, details });
  });

  it('refuses a national number too short for the picked country', () => {
    expect(readE164('123', 'GB')).toMatchObject({ ok: false });
    expect(readE164('7400', 'GB')).toEqual({
      ok: false,
      countryCode: 'GB',
      details: 'not a valid number of GB',
    });
  });

  it('refuses a default country the phone library does not know', () => {
    expect(readE164('07400 123456', 'XX')).toEqual({
      ok: false,
      countryCode: undefined,
      details: 'unknown country code: "XX"',
    });
  });
});
