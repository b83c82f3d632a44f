import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { parsePhone } from './parsePhone.js';
import { toE164 } from './toE164.js';

describe('toE164', () => {
  it.each([
    ['US', '2015550123', '+12015550123'],
    ['GB', '7400123456', '+447400123456'],
    ['FR', '612345678', '+33612345678'],
    ['NG', '8021234567', '+2348021234567'],
    ['CA', '4162345678', '+14162345678'],
  ])('writes %s %s as %s', (countryCode, phone, e164) => {
    expect(toE164({ countryCode, phone })).toBe(e164);
  });

  it('round-trips through parsePhone', () => {
    expect(parsePhone(toE164({ countryCode: 'JP', phone: '9012345678' }))).toEqual({
      countryCode: 'JP',
      phone: '9012345678',
    });
  });

  it('refuses a country the phone library does not know', () => {
    expect(() => toE164({ countryCode: 'XX', phone: '123' })).toThrow(DialError);
    expect(() => toE164({ countryCode: 'XX', phone: '123' })).toThrow(
      expect.objectContaining({ code: 'invalid_data' }),
    );
  });
});
