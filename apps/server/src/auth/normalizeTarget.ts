import { type Channel, normalizeEmail, readInternationalPhone } from '@dial/core';
import type { CodeTarget } from './otpCodes.js';

/**
 * Puts what a person typed in the form Dial stores and compares: a phone number in E.164 (read with
 * core's `readInternationalPhone`; the web app sends E.164 already), an e-mail address trimmed and lower-cased.
 *
 * @throws {DialError} `invalid_phone` when the number is not in international form (`+` or `00` first), cannot
 * be read or is not valid for its country; `invalid_email` when the address is not a plain
 * address (`normalizeEmail`).
 */
export function normalizeTarget(channel: Channel, to: string): CodeTarget {
  if (channel === 'email') return { channel, identifier: normalizeEmail(to) };
  return { channel, identifier: readInternationalPhone(to) };
}
