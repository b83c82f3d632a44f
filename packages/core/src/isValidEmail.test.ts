import { describe, expect, it } from 'vitest';
import { isValidEmail } from './isValidEmail.js';

describe('isValidEmail', () => {
  it.each([
    'ada@example.com',
    '  Ada.Lovelace+dial@Example.CO.UK  ',
    'a@b.io',
    'first.last@sub.domain.example',
    "o'brien+tag@example.com",
    'a_b-c@my-host.example.org',
    'ada@xn--mnchen-3ya.de',
    'ada@123.example.com',
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
    ['a NUL inside', 'ada\u0000@example.com'],
    ['a C0 control inside (dropped by mail software: one mailbox, two accounts)', 'x\u0001y@example.com'],
    ['DEL inside', 'x\u007fy@example.com'],
    ['a C1 control inside', 'x\u0085y@example.com'],
    ['a newline at the end', 'ada@example.com\n'],
    ['a NUL at the end', 'ada@example.com\u0000'],
    ['a colon (a re-authentication key, not an address)', 'reauth:ada@example.com'],
    ['a quoted local part', '"ada lovelace"@example.com'],
    ['a comment', 'ada(home)@example.com'],
    ['a leading dot', '.ada@example.com'],
    ['a trailing dot in the local part', 'ada.@example.com'],
    ['two dots in the local part', 'ada..lovelace@example.com'],
    ['angle brackets', '<ada@example.com>'],
    ['a display name', 'Ada <ada@example.com>'],
    ['a comma (two addresses)', 'ada@example.com,eve@example.com'],
    ['an IP-address literal', 'ada@[192.0.2.1]'],
    ['an all-digit top-level label', 'ada@192.0.2.1'],
    ['a label starting with a hyphen', 'ada@-example.com'],
    ['a label ending with a hyphen', 'ada@example-.com'],
    ['an underscore in the domain', 'ada@ex_ample.com'],
    ['a non-ASCII domain (write its xn-- form)', 'ada@münchen.de'],
    ['a look-alike letter in the local part', 'аda@example.com'],
    ['a local part over 64 characters', `${'x'.repeat(65)}@example.com`],
    ['a label over 63 characters', `ada@${'x'.repeat(64)}.com`],
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
