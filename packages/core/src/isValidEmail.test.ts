import { describe, expect, it } from 'vitest';
import { isValidEmail } from './isValidEmail.js';

describe('isValidEmail', () => {
  it.each([
    'ada@example.com',
    '  Ada.Lovelace+dial@Example.CO.UK  ',
    'a@b.io',
    'first.last@sub.domain.example',
  ])('accepts %j', (input) => {
    expect(isValidEmail(input)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['no @', 'ada.example.com'],
    ['two @', 'ada@lovelace@example.com'],
    ['an empty local part', '@example.com'],
    ['a domain without a dot', 'ada@localhost'],
    ['an empty domain', 'ada@'],
    ['a domain starting with a dot', 'ada@.example.com'],
    ['a domain ending with a dot', 'ada@example.'],
    ['two dots in a row', 'ada@example..com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['a tab inside', 'ada@exam\tple.com'],
  ])('refuses %s', (_label, input) => {
    expect(isValidEmail(input)).toBe(false);
  });

  it('accepts 254 characters and refuses 255', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`;
    const at254 = `${'x'.repeat(254 - domain.length - 1)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(`x${at254}`)).toBe(false);
  });

  it('refuses a value that is not a string', () => {
    expect(isValidEmail(undefined as unknown as string)).toBe(false);
  });
});
