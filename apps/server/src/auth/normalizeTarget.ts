import { DialError, normalizeEmail, readE164 } from '@dial/core';
import type { Channel } from '../delivery/index.js';
import type { CodeTarget } from './otpCodes.js';

/**
 * Puts what a person typed in the form Dial stores and compares: a phone number in E.164 (read with
 * `readE164`; the web app sends E.164 already), an e-mail address trimmed and lower-cased.
 *
 * @throws {DialError} `invalid_phone` when the number is not in international form (`+` or `00` first), cannot
 * be read or is not valid for its country (`readE164`); `invalid_email` when the address is not a plain
 * address (`normalizeEmail`).
 */
export function normalizeTarget(channel: Channel, to: string): CodeTarget {
  if (channel === 'email') return { channel, identifier: normalizeEmail(to) };
  // An identifier names one number whoever sends it: no national form read in a guessed country.
  const phone = readE164(to, null);
  if (!phone.ok) throw new DialError('invalid_phone', { details: phone.details });
  return { channel, identifier: phone.e164 };
}
