import { formatPhoneInput, isValidPhone, parsePhone, toE164 } from '@dial/core';
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
  let country = countryCode;
  try {
    const phone = parsePhone(text, countryCode);
    country = phone.countryCode;
    if (isValidPhone(phone)) {
      const e164 = toE164(phone);
      return { ok: true, e164, display: formatPhoneInput(e164, phone.countryCode).text };
    }
  } catch {
    // Not a number at all: the same message as an invalid one.
  }
  return { ok: false, message: `Enter a valid phone number for ${countryName(country)}.` };
}

export type ParsedAddress = { ok: true; address: `0x${string}` } | { ok: false; message: string };

/**
 * A typed address: 0x and 40 hex digits, returned checksummed. Mixed case must be a valid checksum (a typo in a checksummed
 * address is caught); all lower or all upper case carries no checksum and is taken as it is.
 */
export function parseRecipientAddress(text: string): ParsedAddress {
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
  return { ok: true, address: getAddress(`0x${hex.toLowerCase()}`) };
}
