import { describe, expect, it } from 'vitest';
import { parseRecipientAddress, parseRecipientPhone } from './recipient';

const name = (code: string) => (code === 'GB' ? 'United Kingdom' : code);

describe('parseRecipientPhone', () => {
  it('reads a national or international number into E.164', () => {
    expect(parseRecipientPhone('07400 123456', 'GB', name)).toEqual({
      ok: true,
      e164: '+447400123456',
      display: '+44 7400 123456',
    });
    expect(parseRecipientPhone('+44 7400 123456', 'US', name)).toMatchObject({
      ok: true,
      e164: '+447400123456',
    });
  });

  it('says what is wrong with an empty or invalid number', () => {
    expect(parseRecipientPhone(' ', 'GB', name)).toEqual({
      ok: false,
      message: 'Enter the phone number of the person you pay.',
    });
    expect(parseRecipientPhone('123', 'GB', name)).toEqual({
      ok: false,
      message: 'Enter a valid phone number for United Kingdom.',
    });
  });
});

describe('parseRecipientAddress', () => {
  it('takes a checksummed or a single-case address', () => {
    for (const address of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      ' 0x70997970C51812DC3A010C7D01B50E0D17DC79C8 ',
    ]) {
      expect(parseRecipientAddress(address)).toEqual({
        ok: true,
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      });
    }
  });

  it('refuses a bad checksum, a wrong length, and an empty field', () => {
    expect(parseRecipientAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79c8')).toEqual({
      ok: false,
      message: 'This address has a typo: its capital letters do not match. Check it.',
    });
    expect(parseRecipientAddress('0x7099')).toMatchObject({ ok: false });
    expect(parseRecipientAddress('70997970C51812dc3A010C7d01b50e0d17dc79C8')).toMatchObject({ ok: false });
    expect(parseRecipientAddress('')).toEqual({ ok: false, message: 'Enter the wallet address to send to.' });
  });
});
