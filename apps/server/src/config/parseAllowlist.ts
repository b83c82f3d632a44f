import { isDialError, isValidPhone, normalizeEmail, parsePhone, toE164 } from '@dial/core';
import type { Allowlist } from './appConfig.js';
import { ConfigError } from './configError.js';

/**
 * Reads `ALLOWLIST`: comma-separated e-mail addresses (normalised) and phone numbers in international form
 * (to E.164); empty entries are skipped.
 *
 * @throws {ConfigError} naming the first entry that is neither.
 */
export function parseAllowlist(text: string): Allowlist {
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    try {
      if (entry.includes('@')) {
        emails.add(normalizeEmail(entry));
      } else {
        const phone = parsePhone(entry);
        if (!isValidPhone(phone)) throw new ConfigError('invalid');
        phones.add(toE164(phone));
      }
    } catch (error) {
      if (error instanceof ConfigError || isDialError(error)) {
        throw new ConfigError(
          `ALLOWLIST has an entry that is neither an e-mail address nor a valid phone number in international form (+44…): ${JSON.stringify(entry)}`,
        );
      }
      throw error;
    }
  }
  return { emails: [...emails], phones: [...phones] };
}
