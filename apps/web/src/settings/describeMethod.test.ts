import { describe, expect, it } from 'vitest';
import { formatDay, formatMethodValue, formatMoment, METHOD_KIND_LABELS } from './describeMethod';

describe('formatMethodValue', () => {
  it('groups a phone number internationally, in full', () => {
    expect(formatMethodValue({ kind: 'phone', value: '+447400123456' })).toBe('+44 7400 123456');
    expect(formatMethodValue({ kind: 'phone', value: '+12015550123' })).toBe('+1 201 555 0123');
  });

  it('shows an e-mail address and a wallet address as stored', () => {
    expect(formatMethodValue({ kind: 'email', value: 'ada@example.com' })).toBe('ada@example.com');
    const address = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    expect(formatMethodValue({ kind: 'wallet', value: address })).toBe(address);
  });

  it('shows a stored phone number it cannot read as it is', () => {
    expect(formatMethodValue({ kind: 'phone', value: '+999' })).toBe('+999');
  });
});

describe('labels and dates', () => {
  it('names each kind', () => {
    expect(METHOD_KIND_LABELS).toEqual({
      phone: 'Phone number',
      email: 'Email address',
      wallet: 'Wallet',
      passkey: 'Passkey',
    });
  });

  it('names a passkey by its name, never by its credential id', () => {
    expect(formatMethodValue({ kind: 'passkey', value: 'AbC-_d', name: 'My phone' })).toBe('My phone');
  });

  it('writes a day and a moment in the given locale', () => {
    expect(formatDay('2026-11-24T09:30:00.000Z', 'en-GB')).toBe('24 Nov 2026');
    expect(formatMoment('2026-11-24T09:30:00.000Z', 'en-GB')).toMatch(/^24 Nov 2026, \d{2}:30$/);
  });
});
