import { describe, expect, it } from 'vitest';
import { cleanCode, isCompleteCode } from './verificationCode';

describe('cleanCode', () => {
  it('keeps the digits of a pasted code with a space or a dash', () => {
    expect(cleanCode('123 456')).toBe('123456');
    expect(cleanCode('123-456')).toBe('123456');
    expect(cleanCode(' 12 34 56\n')).toBe('123456');
  });

  it('keeps at most six digits', () => {
    expect(cleanCode('1234567')).toBe('123456');
    expect(cleanCode('Your code: 654321. Expires in 10 minutes')).toBe('654321');
  });

  it('drops letters and keeps a partial code as it is', () => {
    expect(cleanCode('12a')).toBe('12');
    expect(cleanCode('abc')).toBe('');
  });

  it('reads full-width and Arabic-Indic digits as ASCII digits', () => {
    expect(cleanCode('１２３４５６')).toBe('123456');
    expect(cleanCode('١٢٣٤٥٦')).toBe('123456');
  });
});

describe('isCompleteCode', () => {
  it('is true for exactly six digits only', () => {
    expect(isCompleteCode('123456')).toBe(true);
    expect(isCompleteCode('12345')).toBe(false);
    expect(isCompleteCode('12345a')).toBe(false);
  });
});
