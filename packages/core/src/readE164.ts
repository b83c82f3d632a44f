import { isDialError } from './errors.js';
import { isValidPhone } from './isValidPhone.js';
import { parsePhone } from './parsePhone.js';
import { toE164 } from './toE164.js';

/** What {@link readE164} made of a phone number. */
export type E164Reading =
  | {
      ok: true;
      /** The number in E.164, e.g. `'+447400123456'`. */
      e164: string;
      /** ISO 3166-1 alpha-2 code of the number's country, e.g. `'GB'`. */
      countryCode: string;
    }
  | {
      ok: false;
      /** The country the number was read as, when it could be read at all (to name it in a message). */
      countryCode: string | undefined;
      /** Why, for logs and developers; never a message for people. */
      details: string;
    };

/** A leading `+` or `00` after spaces: an international number, read the same whoever sends it. */
const INTERNATIONAL = /^\s*(\+|00)/;

/**
 * Reads a phone number as a person typed or pasted it into E.164, the form Dial stores, sends and compares
 * numbers in: read with {@link parsePhone}, and accepted only when {@link isValidPhone} says it is a valid
 * number of its country. The one rule the server (sign-in identifiers, the recipient look-up, activity
 * records) and the web app (sign-in and send forms) share; each says "invalid" in its own words.
 *
 * @param input - What the person typed, e.g. `'+44 7400 123456'` or `'07400 123456'`.
 * @param defaultCountry - The country of a number typed without an international prefix (ISO 3166-1
 * alpha-2, as for {@link parsePhone}), or `null` to read international numbers only (`+` or `00` first,
 * after spaces): an identifier must name one number whoever sends it, with no country guessed.
 * @returns `ok: true` with the E.164 number and its country; else `ok: false` with the country the number
 * was read as (`undefined` when it could not be read) and why.
 * @throws Only what is not a {@link DialError} (a bug): input that is no phone number is `ok: false`.
 *
 * @example
 * ```ts
 * readE164('07400 123456', 'GB'); // { ok: true, e164: '+447400123456', countryCode: 'GB' }
 * readE164('07400 123456', null); // { ok: false, countryCode: undefined, details: 'not in international form' }
 * readE164('+44123', null); // { ok: false, countryCode: 'GB', details: 'not a valid number of GB' }
 * ```
 */
export function readE164(input: string, defaultCountry: string | null): E164Reading {
  if (defaultCountry === null && !INTERNATIONAL.test(input.normalize('NFKC'))) {
    return { ok: false, countryCode: undefined, details: 'not in international form' };
  }
  try {
    const phone = parsePhone(input, defaultCountry ?? undefined);
    if (isValidPhone(phone)) return { ok: true, e164: toE164(phone), countryCode: phone.countryCode };
    return {
      ok: false,
      countryCode: phone.countryCode,
      details: `not a valid number of ${phone.countryCode}`,
    };
  } catch (error) {
    // parsePhone's invalid_data ("has letters", "too long") means, here, no valid phone number.
    if (!isDialError(error)) throw error;
    return { ok: false, countryCode: undefined, details: error.details ?? error.message };
  }
}
