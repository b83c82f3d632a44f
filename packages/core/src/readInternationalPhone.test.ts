import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { readInternationalPhone } from './readInternationalPhone.js';

describe('readInternationalPhone', () => {
  it.each([
    ['+447400123456', '+447400123456'],
    ['+44 7400 123456', '+447400123456'],
    ['0044-7400-123-456', '+447400123456'],
    [' +1 (201) 555-0123', '+12015550123'],
  ])('reads %j as %s', (input, e164) => {
    expect(readInternationalPhone(input)).toBe(e164);
  });

  it.each([
    ['a national US number', '(201) 555-0123', 'not in international form'],
    ['a national UK number', '07400 123456', 'not in international form'],
    ['an invalid number', '+44 123', 'not a valid number of GB'],
    ['letters', '+44 abc', 'phone number has characters other than digits'],
  ])('refuses %s with invalid_phone', (_name, input, details) => {
    let thrown: unknown;
    try {
      readInternationalPhone(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DialError);
    expect(thrown).toMatchObject({ code: 'invalid_phone', details });
  });
});
