import { formatPhoneInput, readE164 } from '@dial/core';
import { getAddress, isAddress } from 'viem';

export type RecipientMode = 'phone' | 'address';

export type ParsedPhone = { ok: true; e164: string; display: string } | { ok: false; message: string };

/** The recipient's number as typed (with the picked country), in E.164 for the look-up. */
export function parseRecipientPhone(
  text: string,
  countryCode: string,
  countryName: (code: string) => string,
): ParsedPhone {
  if (text.trim() === '') return { ok: false, message: 'Enter the phone number of the person you pay.' };
  const phone = readE164(text, countryCode);
  if (phone.ok) {
    return { ok: true, e164: phone.e164, display: formatPhoneInput(phone.e164, phone.countryCode).text };
  }
  // Not a number at all: the same message as an invalid one, naming the picked country.
  return {
    ok: false,
    message: `Enter a valid phone number for ${countryName(phone.countryCode ?? countryCode)}.`,
  };
}

export type ParsedAddress = { ok: true; address: `0x${string}` } | { ok: false; message: string };

/**
 * A typed address: 0x and 40 hex digits, returned checksummed. Mixed case must be a valid checksum (a typo in a checksummed
 * address is caught); all lower or all upper case carries no checksum and is taken as it is.
 */
export function parseRecipientAddress(text: string, rules: RecipientRules): ParsedAddress {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter the wallet address to send to.' };
  if (!/^0x[0-9a-fA-F]{40}$/.test(trimmed)) {
    return { ok: false, message: 'An address starts with 0x followed by 40 letters and digits (0–9, a–f).' };
  }
  const hex = trimmed.slice(2);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!singleCase && !isAddress(trimmed)) {
    return { ok: false, message: 'This address has a typo: its capital letters do not match. Check it.' };
  }
  // Checksummed, as it is shown on the confirmation.
  const address = getAddress(`0x${hex.toLowerCase()}`);
  const refused = refuseRecipient(address, rules, 'address');
  return refused === null ? { ok: true, address } : { ok: false, message: refused };
}

/** What a recipient is checked against: the sender's own wallet and the chain's USDC contract. */
export interface RecipientRules {
  ownAddress: `0x${string}`;
  /** The chain's USDC contract, undefined on a chain without one. */
  usdcAddress: `0x${string}` | undefined;
  chainName: string;
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/**
 * Why a well-formed recipient must not be paid, or null when it may. The zero address and the USDC contract
 * are not wallets: what is sent to them is lost for good. Paying oneself only costs a fee and is almost
 * always a mix-up (a copied own address, one's own number), so it is refused too. `via` says how the person
 * named the recipient, so the message points at what they typed.
 */
export function refuseRecipient(
  address: `0x${string}`,
  { ownAddress, usdcAddress, chainName }: RecipientRules,
  via: 'address' | 'phone',
): string | null {
  const same = (other: string | undefined) => other?.toLowerCase() === address.toLowerCase();
  if (same(ZERO_ADDRESS)) {
    return 'This is the zero address: nobody can ever spend what is sent to it. Check the address.';
  }
  if (same(usdcAddress)) {
    return `This is the USDC token contract on ${chainName}, not a wallet: what is sent to it is lost. Enter the recipient's wallet address.`;
  }
  if (same(ownAddress)) {
    return via === 'phone'
      ? 'This number leads to your own wallet. Enter the number of the person you pay.'
      : 'This is your own wallet address. Enter the address of the person you pay.';
  }
  return null;
}
