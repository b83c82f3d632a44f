import { describe, expect, it } from 'vitest';
import { isValidPhone } from './isValidPhone.js';
import { parsePhone } from './parsePhone.js';

describe('isValidPhone', () => {
  it.each([
    ['+44 7400 123456'],
    ['07400 123456'],
    ['+1 201 555 0123'],
    ['+1 416 234 5678'],
    ['+49 1512 3456789'],
    ['+33 6 12 34 56 78'],
    ['+91 98765 43210'],
    ['+81 90-1234-5678'],
    ['+55 11 91234-5678'],
    ['+234 802 123 4567'],
    ['+61 412 345 678'],
    ['+86 138 0013 8000'],
    ['+7 701 234 5678'],
    ['+44 7781 123456'],
  ])('accepts the mobile number %s once parsed', (input) => {
    expect(isValidPhone(parsePhone(input, 'GB'))).toBe(true);
  });

  it('refuses the UK numbers reserved for fiction (07700 900xxx)', () => {
    expect(isValidPhone(parsePhone('+44 7700 900123'))).toBe(false);
    expect(isValidPhone(parsePhone('07700 900123', 'GB'))).toBe(false);
  });

  it('refuses a landline, since it uses the mobile metadata', () => {
    // A Rome landline: a valid Italian number, but not a mobile one.
    expect(isValidPhone(parsePhone('+39 06 1234 5678'))).toBe(false);
  });

  it('refuses numbers that are too short or too long for the country', () => {
    expect(isValidPhone({ countryCode: 'GB', phone: '7400' })).toBe(false);
    expect(isValidPhone({ countryCode: 'GB', phone: '74001234567' })).toBe(false);
    expect(isValidPhone({ countryCode: 'US', phone: '12' })).toBe(false);
  });

  it('refuses a valid number labelled with another country of the same calling code', () => {
    expect(isValidPhone({ countryCode: 'US', phone: '2015550123' })).toBe(true);
    expect(isValidPhone({ countryCode: 'CA', phone: '2015550123' })).toBe(false);
  });

  it('refuses a number stored with its national prefix', () => {
    expect(isValidPhone({ countryCode: 'GB', phone: '07400123456' })).toBe(false);
  });

  it('refuses a phone that is not only digits', () => {
    expect(isValidPhone({ countryCode: 'GB', phone: '7400 123456' })).toBe(false);
    expect(isValidPhone({ countryCode: 'GB', phone: '' })).toBe(false);
  });

  it('refuses an unknown country instead of throwing', () => {
    expect(isValidPhone({ countryCode: 'XX', phone: '7400123456' })).toBe(false);
  });
});
