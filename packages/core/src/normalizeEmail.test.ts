import { describe, expect, it } from 'vitest';
import { DialError } from './errors.js';
import { normalizeEmail } from './normalizeEmail.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM  ')).toBe('ada.lovelace@example.com');
  });

  it('keeps plus tags', () => {
    expect(normalizeEmail('Ada+Dial@example.com')).toBe('ada+dial@example.com');
  });

  it.each([
    ['an empty string', ''],
    ['no @', 'ada.example.com'],
    ['a domain without a dot', 'ada@localhost'],
    ['a space inside', 'ada @example.com'],
    ['more than 254 characters', `${'x'.repeat(250)}@example.com`],
    ['a control character inside', 'x\u0001y@example.com'],
    ['a NUL', 'ada@example.com\u0000'],
    ['a trailing newline', 'ada@example.com\n'],
    ['a colon', 'reauth:ada@example.com'],
  ])('refuses %s with invalid_email', (_label, input) => {
    expect(() => normalizeEmail(input)).toThrow(DialError);
    expect(() => normalizeEmail(input)).toThrow(
      expect.objectContaining({ code: 'invalid_email', status: 400 }),
    );
  });
});
