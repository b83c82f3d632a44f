import { describe, expect, it } from 'vitest';
import { formatPhoneInput } from './formatPhoneInput.js';
import { parsePhone } from './parsePhone.js';

describe('formatPhoneInput', () => {
  describe('national numbers', () => {
    it.each([
      ['2015550123', 'US', '(201) 555-0123'],
      ['07400123456', 'GB', '07400 123456'],
      ['0612345678', 'FR', '06 12 34 56 78'],
      ['09012345678', 'JP', '090-1234-5678'],
      ['015123456789', 'DE', '01512 3456789'],
    ])('formats %s for %s as %s', (input, countryCode, text) => {
      expect(formatPhoneInput(input, countryCode)).toEqual({ text, countryCode });
    });

    it('formats step by step as digits are typed', () => {
      expect(formatPhoneInput('0', 'GB')).toEqual({ text: '0', countryCode: 'GB' });
      expect(formatPhoneInput('07400', 'GB')).toEqual({ text: '07400', countryCode: 'GB' });
      expect(formatPhoneInput('074001', 'GB')).toEqual({ text: '07400 1', countryCode: 'GB' });
    });

    it('re-formats text it formatted before', () => {
      expect(formatPhoneInput('(201) 555-0123', 'US')).toEqual({ text: '(201) 555-0123', countryCode: 'US' });
    });

    it('keeps the chosen country when the number belongs to another country of its calling code', () => {
      expect(formatPhoneInput('4162345678', 'US').countryCode).toBe('US');
    });

    it('keeps every digit when there are more than the country uses', () => {
      expect(formatPhoneInput('201555012399', 'US')).toEqual({ text: '201555012399', countryCode: 'US' });
    });

    it('returns the digits unformatted for a country the library does not know', () => {
      expect(formatPhoneInput('2015550123', 'XX')).toEqual({ text: '2015550123', countryCode: 'XX' });
    });

    it('returns an empty text for an empty field', () => {
      expect(formatPhoneInput('', 'GB')).toEqual({ text: '', countryCode: 'GB' });
    });
  });

  describe('international numbers', () => {
    it.each([
      ['+33612345678', 'US', '+33 6 12 34 56 78', 'FR'],
      ['+12015550123', 'GB', '+1 201 555 0123', 'US'],
      ['+14162345678', 'US', '+1 416 234 5678', 'CA'],
      ['+447400123456', 'US', '+44 7400 123456', 'GB'],
      ['+447911123456', 'US', '+44 7911 123456', 'GB'],
      ['+447781123456', 'FR', '+44 7781 123456', 'GB'],
      ['+12125550123', 'FR', '+1 212 555 0123', 'US'],
      ['+18762345678', 'US', '+1 876 234 5678', 'JM'],
      ['+77012345678', 'US', '+7 701 234 5678', 'KZ'],
      ['+79123456789', 'US', '+7 912 345 67 89', 'RU'],
      ['+358401234567', 'US', '+358 40 1234567', 'FI'],
    ])('formats %s (chosen %s) as %s and shows %s', (input, chosen, text, countryCode) => {
      expect(formatPhoneInput(input, chosen)).toEqual({ text, countryCode });
    });

    it('shows the main country for a number in the range of a place that shares its calling code', () => {
      // Guernsey, Jersey and the Isle of Man numbers are in the UK's plan; the library places them apart.
      expect(formatPhoneInput('+44 7911 123456', 'DE').countryCode).toBe('GB');
      expect(formatPhoneInput('+44 7797 123456', 'DE').countryCode).toBe('GB');
      expect(formatPhoneInput('+47 79 12 34 56', 'DE').countryCode).toBe('NO');
    });

    it('shows a +1 number’s country from its area code once the digits tell, the main country before', () => {
      expect(formatPhoneInput('+1', 'GB').countryCode).toBe('US');
      expect(formatPhoneInput('+1 416', 'GB').countryCode).toBe('US');
      expect(formatPhoneInput('+1 416 234 567', 'GB').countryCode).toBe('US');
      expect(formatPhoneInput('+1 416 234 5678', 'GB').countryCode).toBe('CA');
      expect(formatPhoneInput('+1 416 234 5678', 'US').countryCode).toBe('CA');
      expect(formatPhoneInput('+1 212 555 0123', 'CA').countryCode).toBe('US');
    });

    it('shows Russia for +7 until the number tells', () => {
      expect(formatPhoneInput('+7', 'GB').countryCode).toBe('RU');
      expect(formatPhoneInput('+7 9', 'GB').countryCode).toBe('RU');
    });

    it('reads a leading 00 as +', () => {
      expect(formatPhoneInput('0044 7400 123456', 'US')).toEqual({
        text: '+44 7400 123456',
        countryCode: 'GB',
      });
      expect(formatPhoneInput('00', 'FR')).toEqual({ text: '+', countryCode: 'FR' });
    });

    it('keeps the chosen country until the calling code is complete', () => {
      expect(formatPhoneInput('+', 'FR')).toEqual({ text: '+', countryCode: 'FR' });
      expect(formatPhoneInput('+4', 'FR')).toEqual({ text: '+4', countryCode: 'FR' });
    });

    it('uses the main country of a shared calling code once it is typed', () => {
      expect(formatPhoneInput('+44', 'US')).toEqual({ text: '+44', countryCode: 'GB' });
      expect(formatPhoneInput('+447', 'US')).toEqual({ text: '+44 7', countryCode: 'GB' });
    });

    it('keeps the chosen country when it shares the calling code typed', () => {
      expect(formatPhoneInput('+44 7', 'JE')).toEqual({ text: '+44 7', countryCode: 'JE' });
      expect(formatPhoneInput('+1', 'CA')).toEqual({ text: '+1', countryCode: 'CA' });
    });

    it('keeps the chosen country for an unknown or non-geographic calling code', () => {
      expect(formatPhoneInput('+999123', 'FR')).toEqual({ text: '+999123', countryCode: 'FR' });
      expect(formatPhoneInput('+80012345678', 'FR')).toEqual({ text: '+800 1234 5678', countryCode: 'FR' });
    });

    it('keeps every digit of a number too long for its country', () => {
      expect(formatPhoneInput('+1201555012345678', 'US').text.replace(/\D/g, '')).toBe('1201555012345678');
    });
  });

  it.each([
    ['2015550123', 'US'],
    ['+44 7400 123456', 'US'],
    ['0044 7400 123456', 'US'],
    ['06 12 34 56 78', 'FR'],
    ['+81 90 1234 5678', 'GB'],
  ])('gives text that parsePhone reads back to the same number: %s (%s)', (input, chosen) => {
    const state = formatPhoneInput(input, chosen);
    expect(parsePhone(state.text, state.countryCode)).toEqual(parsePhone(input, chosen));
  });
});
