import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { parsePhone } from './parsePhone.js';

function parseError(input: string, defaultCountry?: string): DialError {
  try {
    parsePhone(input, defaultCountry);
  } catch (error) {
    if (error instanceof DialError) return error;
    throw error;
  }
  throw new Error(`parsePhone(${JSON.stringify(input)}) did not throw`);
}

describe('parsePhone', () => {
  describe('international numbers', () => {
    it.each([
      ['+44 7400 123456', 'GB', '7400123456'],
      ['+44 7123 456789', 'GB', '7123456789'],
      ['+1 201 555 0123', 'US', '2015550123'],
      ['+1 416 234 5678', 'CA', '4162345678'],
      ['+49 1512 3456789', 'DE', '15123456789'],
      ['+33 6 12 34 56 78', 'FR', '612345678'],
      ['+91 98765 43210', 'IN', '9876543210'],
      ['+81 90-1234-5678', 'JP', '9012345678'],
      ['+55 11 91234-5678', 'BR', '11912345678'],
      ['+234 802 123 4567', 'NG', '8021234567'],
      ['+61 412 345 678', 'AU', '412345678'],
      ['+86 138 0013 8000', 'CN', '13800138000'],
      ['+7 912 345 67 89', 'RU', '9123456789'],
      ['+7 701 234 5678', 'KZ', '7012345678'],
      ['+34 612 34 56 78', 'ES', '612345678'],
      ['+39 312 345 6789', 'IT', '3123456789'],
      ['+52 222 123 4567', 'MX', '2221234567'],
      ['+27 71 123 4567', 'ZA', '711234567'],
      ['+82 10-1234-5678', 'KR', '1012345678'],
      ['+971 50 123 4567', 'AE', '501234567'],
      ['+44 7781 123456', 'GG', '7781123456'],
      ['+44 7624 369230', 'IM', '7624369230'],
      ['+1 684 733 1234', 'AS', '6847331234'],
    ])('reads %s as %s %s', (input, countryCode, phone) => {
      expect(parsePhone(input)).toEqual({ countryCode, phone });
    });

    it('reads an E.164 number without any spaces', () => {
      expect(parsePhone('+12015550123')).toEqual({ countryCode: 'US', phone: '2015550123' });
    });

    it('ignores the default country when the number has a calling code', () => {
      expect(parsePhone('+33 6 12 34 56 78', 'US')).toEqual({ countryCode: 'FR', phone: '612345678' });
    });

    it('reads a leading 00 as +, whatever the default country', () => {
      expect(parsePhone('0044 7400 123456')).toEqual({ countryCode: 'GB', phone: '7400123456' });
      expect(parsePhone('0033 6 12 34 56 78', 'US')).toEqual({ countryCode: 'FR', phone: '612345678' });
    });

    it('drops the (0) national prefix written inside a UK international number', () => {
      expect(parsePhone('+44 (0) 7400-123-456')).toEqual({ countryCode: 'GB', phone: '7400123456' });
    });

    it('reads a + inside parentheses', () => {
      expect(parsePhone('(+44) 7400 123456')).toEqual({ countryCode: 'GB', phone: '7400123456' });
    });

    it('reads the US international prefix 011 with the US default', () => {
      expect(parsePhone('011 44 7400 123456')).toEqual({ countryCode: 'GB', phone: '7400123456' });
    });
  });

  describe('calling codes shared by several countries', () => {
    it('uses the main country of +44 when the number fits none of its countries', () => {
      // 07700 900xxx is reserved for fiction, so the library cannot place it in GB, GG, IM or JE.
      expect(parsePhone('+44 7700 900123')).toEqual({ countryCode: 'GB', phone: '7700900123' });
    });

    it('uses the main country of +1 for a toll-free number', () => {
      expect(parsePhone('+1 800 555 0123')).toEqual({ countryCode: 'US', phone: '8005550123' });
    });

    it('keeps the default country when it shares the calling code the library cannot resolve', () => {
      expect(parsePhone('+44 7700 900123', 'JE')).toEqual({ countryCode: 'JE', phone: '7700900123' });
    });

    it('uses the main country when the default country has another calling code', () => {
      expect(parsePhone('+44 7700 900123', 'FR')).toEqual({ countryCode: 'GB', phone: '7700900123' });
    });
  });

  describe('national numbers', () => {
    it.each([
      ['07400 123456', 'GB', 'GB', '7400123456'],
      ['07700 900123', 'GB', 'GB', '7700900123'],
      ['06 12 34 56 78', 'FR', 'FR', '612345678'],
      ['0151 23456789', 'DE', 'DE', '15123456789'],
      ['090-1234-5678', 'JP', 'JP', '9012345678'],
      ['0412 345 678', 'AU', 'AU', '412345678'],
      ['8 912 345-67-89', 'RU', 'RU', '9123456789'],
      ['(11) 91234-5678', 'BR', 'BR', '11912345678'],
      ['98765 43210', 'IN', 'IN', '9876543210'],
      ['(201) 555-0123', 'US', 'US', '2015550123'],
      ['201.555.0123', 'US', 'US', '2015550123'],
      ['201/555-0123', 'US', 'US', '2015550123'],
    ])('reads %s with default %s as %s %s', (input, defaultCountry, countryCode, phone) => {
      expect(parsePhone(input, defaultCountry)).toEqual({ countryCode, phone });
    });

    it('takes the country from the number when it belongs to another country of its calling code', () => {
      expect(parsePhone('416 234 5678', 'US')).toEqual({ countryCode: 'CA', phone: '4162345678' });
      expect(parsePhone('07781 123456', 'GB')).toEqual({ countryCode: 'GG', phone: '7781123456' });
    });

    it('reads numbers without a prefix or a default country as US numbers', () => {
      expect(parsePhone('(201) 555-0123')).toEqual({ countryCode: 'US', phone: '2015550123' });
      expect(parsePhone('2015550123')).toEqual({ countryCode: 'US', phone: '2015550123' });
    });

    it('treats an empty default country as none', () => {
      expect(parsePhone('201 555 0123', '')).toEqual({ countryCode: 'US', phone: '2015550123' });
    });

    it('accepts a lower-case default country', () => {
      expect(parsePhone('07400 123456', 'gb')).toEqual({ countryCode: 'GB', phone: '7400123456' });
    });

    it('accepts full-width digits and typographic dashes', () => {
      expect(parsePhone('＋４４ ７４００ １２３４５６')).toEqual({ countryCode: 'GB', phone: '7400123456' });
      expect(parsePhone('201–555–0123')).toEqual({ countryCode: 'US', phone: '2015550123' });
    });

    it('does not require the number to be valid', () => {
      expect(parsePhone('12', 'US')).toEqual({ countryCode: 'US', phone: '12' });
    });
  });

  describe('refusals', () => {
    it.each([
      ['16 digits', '+44 7400 1234567890'],
      ['16 digits after 00', '0044 7400 1234567890'],
      ['16 national digits', '2015550123456789'],
    ])('refuses %s with invalid_data', (_label, input) => {
      expect(() => parsePhone(input)).toThrow(DialError);
      expect(parseError(input).code).toBe('invalid_data');
      expect(parseError(input).details).toMatch(/more than 15 digits/);
    });

    it('accepts exactly 15 digits', () => {
      expect(parsePhone('+86 138 0013 8000 12').phone).toBe('1380013800012');
    });

    it.each([
      ['a letter in the number', '201555CALL'],
      ['an extension', '+44 7400 123456 ext 12'],
      ['an e-mail address', 'ada@example.com'],
      ['a + in the middle', '44+7400123456'],
      ['a # sign', '#2015550123'],
    ])('refuses %s with invalid_data', (_label, input) => {
      expect(() => parsePhone(input, 'US')).toThrow(DialError);
      const error = parseError(input, 'US');
      expect(error.code).toBe('invalid_data');
      expect(error.status).toBe(400);
      expect(error.details).toMatch(/characters other than digits/);
    });

    it.each([
      ['an empty string', ''],
      ['spaces only', '   '],
      ['a lone +', '+'],
      ['punctuation only', '(-)'],
      ['a lone 00', '00'],
    ])('refuses %s as empty', (_label, input) => {
      expect(() => parsePhone(input)).toThrow(DialError);
      const error = parseError(input);
      expect(error.code).toBe('invalid_data');
      expect(error.details).toBe('phone number is empty');
    });

    it.each([
      ['an unknown calling code', '+999 1234 5678'],
      ['a calling code alone', '+44'],
      ['a calling code and one digit', '+44 1'],
      ['a single national digit', '1'],
    ])('refuses %s it cannot read', (_label, input) => {
      expect(() => parsePhone(input)).toThrow(DialError);
      const error = parseError(input);
      expect(error.code).toBe('invalid_data');
      expect(error.details).toMatch(/^phone number could not be read: /);
    });

    it('refuses a non-geographic number, which has no country', () => {
      expect(() => parsePhone('+800 1234 5678')).toThrow(DialError);
      expect(parseError('+800 1234 5678').code).toBe('invalid_data');
      expect(parseError('+800 1234 5678').details).toBe('calling code +800 belongs to no country');
    });

    it('refuses a default country the phone library does not know', () => {
      expect(() => parsePhone('07400 123456', 'XX')).toThrow(DialError);
      expect(parseError('07400 123456', 'XX').code).toBe('invalid_data');
      expect(parseError('07400 123456', 'XX').details).toBe('unknown country code: "XX"');
    });

    it('refuses a value that is not a string', () => {
      const input = 2015550123 as unknown as string;
      expect(() => parsePhone(input)).toThrow(DialError);
      expect(parseError(input).code).toBe('invalid_data');
    });
  });
});
