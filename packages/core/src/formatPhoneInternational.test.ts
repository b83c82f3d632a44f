import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { formatPhoneInternational } from './formatPhoneInternational.js';

describe('formatPhoneInternational', () => {
  it.each([
    ['US', '2015550123', '+1 2015550123'],
    ['GB', '7400123456', '+44 7400123456'],
    ['DE', '15123456789', '+49 15123456789'],
    ['IN', '9876543210', '+91 9876543210'],
    ['KZ', '7012345678', '+7 7012345678'],
  ])('writes %s %s as %s', (countryCode, phone, text) => {
    expect(formatPhoneInternational({ countryCode, phone })).toBe(text);
  });

  it('refuses a country the phone library does not know', () => {
    expect(() => formatPhoneInternational({ countryCode: 'ZZ', phone: '1' })).toThrow(DialError);
    expect(() => formatPhoneInternational({ countryCode: 'ZZ', phone: '1' })).toThrow(
      expect.objectContaining({ code: 'invalid_data' }),
    );
  });
});
