import { describe, expect, it } from 'vitest';
import { parseRecipientAddress, parseRecipientPhone, refuseRecipient } from './recipient';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const OWN = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const rules = { ownAddress: OWN, usdcAddress: BASE_USDC, chainName: 'Base' } as const;

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
      expect(parseRecipientAddress(address, rules)).toEqual({
        ok: true,
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      });
    }
  });

  it('refuses a bad checksum, a wrong length, and an empty field', () => {
    expect(parseRecipientAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79c8', rules)).toEqual({
      ok: false,
      message: 'This address has a typo: its capital letters do not match. Check it.',
    });
    expect(parseRecipientAddress('0x7099', rules)).toMatchObject({ ok: false });
    expect(parseRecipientAddress('70997970C51812dc3A010C7d01b50e0d17dc79C8', rules)).toMatchObject({
      ok: false,
    });
    expect(parseRecipientAddress('', rules)).toEqual({
      ok: false,
      message: 'Enter the wallet address to send to.',
    });
  });

  it('refuses the zero address', () => {
    expect(parseRecipientAddress(` 0x${'0'.repeat(40)} `, rules)).toEqual({
      ok: false,
      message: 'This is the zero address: nobody can ever spend what is sent to it. Check the address.',
    });
  });

  it("refuses the chain's USDC contract, typed in any case", () => {
    const message =
      "This is the USDC token contract on Base, not a wallet: what is sent to it is lost. Enter the recipient's wallet address.";
    expect(parseRecipientAddress(BASE_USDC, rules)).toEqual({ ok: false, message });
    expect(parseRecipientAddress(BASE_USDC.toLowerCase(), rules)).toEqual({ ok: false, message });
    // On a chain without USDC the same address is only an address.
    expect(parseRecipientAddress(BASE_USDC, { ...rules, usdcAddress: undefined })).toEqual({
      ok: true,
      address: BASE_USDC,
    });
  });

  it("refuses the sender's own address", () => {
    expect(parseRecipientAddress(OWN.toLowerCase(), rules)).toEqual({
      ok: false,
      message: 'This is your own wallet address. Enter the address of the person you pay.',
    });
  });
});

describe('refuseRecipient', () => {
  it('lets another wallet be paid', () => {
    expect(refuseRecipient('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', rules, 'phone')).toBeNull();
  });

  it('says a number that leads to your own wallet is yours', () => {
    expect(refuseRecipient(OWN, rules, 'phone')).toBe(
      'This number leads to your own wallet. Enter the number of the person you pay.',
    );
  });
});
