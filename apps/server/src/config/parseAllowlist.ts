import { isDialError, normalizeEmail, readAddress, readE164 } from '@dial/core';
import type { Allowlist } from './appConfig.js';
import { ConfigError } from './configError.js';

/**
 * Reads `ALLOWLIST`: comma-separated e-mail addresses (normalised), phone numbers in international form
 * (to E.164) and wallet addresses (to EIP-55); empty entries are skipped.
 *
 * @throws {ConfigError} naming the first entry that is neither.
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
        // A national number is read as American, as it always was (the message asks for international form).
        const phone = readE164(entry, 'US');
        if (!phone.ok) throw new ConfigError('invalid');
        phones.add(phone.e164);
      }
    } catch (error) {
      if (error instanceof ConfigError || isDialError(error)) {
        throw new ConfigError(
          `ALLOWLIST has an entry that is not an e-mail address, a valid phone number in international form (+44…) or a wallet address (0x and 40 hex digits): ${JSON.stringify(entry)}`,
        );
      }
      throw error;
    }
  }
  return { emails: [...emails], phones: [...phones], wallets: [...wallets] };
}
