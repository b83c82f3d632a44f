import { isDialError, normalizeEmail, readAddress, readInternationalPhone } from '@dial/core';
import type { Allowlist } from './appConfig.js';
import { ConfigError } from './configError.js';

/**
 * Reads `ALLOWLIST`: comma-separated e-mail addresses (normalised), phone numbers in international form
 * (to E.164, read as every phone number the server is sent: core's `readInternationalPhone`) and wallet
 * addresses (to EIP-55); empty entries are skipped.
 *
 * @throws {ConfigError} naming the first entry that is neither, and saying so of a national phone number.
 */
export function parseAllowlist(text: string): Allowlist {
  const emails = new Set<string>();
  const phones = new Set<string>();
  const wallets = new Set<string>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    try {
      if (entry.includes('@')) {
        emails.add(normalizeEmail(entry));
      } else if (/^0x/i.test(entry)) {
        wallets.add(readAddress(entry));
      } else {
        // International form only, as every number the server is sent: a national one names no line.
        phones.add(readInternationalPhone(entry));
      }
    } catch (error) {
      if (isDialError(error)) {
        const why = error.details === undefined ? '' : ` (${error.details})`;
        throw new ConfigError(
          `ALLOWLIST has an entry that is not an e-mail address, a valid phone number in international form (+ and the country's calling code: +1…, +44…; a national number is refused) or a wallet address (0x and 40 hex digits): ${JSON.stringify(entry)}${why}`,
        );
      }
      throw error;
    }
  }
  return { emails: [...emails], phones: [...phones], wallets: [...wallets] };
}
