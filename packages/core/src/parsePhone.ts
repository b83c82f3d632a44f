import { type CountryCode, parsePhoneNumberWithError } from 'libphonenumber-js/mobile';
import { DialError } from './errors.js';
import { countryForCallingCode, supportedCountry } from './phoneCountry.js';

/** A phone number as Dial stores it: the country and the national significant number. */
export interface PhoneValue {
  /** ISO 3166-1 alpha-2 country code, e.g. `'GB'`. */
  countryCode: string;
  /** The national significant number: digits, no calling code, no national prefix, e.g. `'7400123456'`. */
  phone: string;
}

/** The longest phone number E.164 allows, in digits. */
const MAX_DIGITS = 15;

/** What people put between digits: spaces, dashes (plain and typographic), dots, brackets, slashes. */
const SEPARATORS = /[\s\-.()/\u2010-\u2015\u2212]/g;

/**
 * Reads a phone number as people type or paste it into a {@link PhoneValue}.
 *
 * Spaces, dashes, dots, parentheses and slashes are ignored; a leading `+` or `00` starts an international
 * number (`00` is read as `+` whatever the country). Without an international prefix the number is read as a
 * national number of `defaultCountry`, or of the US when there is none. The country comes from the number
 * when the phone library can tell (a national number typed for `US` can turn out to be Canadian); when a
 * calling code is shared by several countries and the library cannot tell which, `defaultCountry` is kept
 * if it shares that calling code, else the library's main country for it is used (`+44` → `GB`).
 *
 * The number is not required to be valid: check it with {@link isValidPhone}.
 *
 * @param input - What the person typed, e.g. `'+44 7400 123456'`, `'07400 123456'` or `'(201) 555-0123'`.
 * @param defaultCountry - ISO 3166-1 alpha-2 code of the country for numbers without an international prefix.
 * @returns The country code and the national significant number.
 * @throws {DialError} `invalid_data` when the input is empty, has letters or other characters, has more than
 * 15 digits, cannot be parsed (too short, unknown calling code) or belongs to no country (e.g. `+800`), or
 * when `defaultCountry` is not a country the phone library knows.
 *
 * @example
 * ```ts
 * parsePhone('+44 7400 123456'); // { countryCode: 'GB', phone: '7400123456' }
 * parsePhone('06 12 34 56 78', 'FR'); // { countryCode: 'FR', phone: '612345678' }
 * parsePhone('(201) 555-0123'); // { countryCode: 'US', phone: '2015550123' }
 * ```
 */
export function parsePhone(input: string, defaultCountry?: string): PhoneValue {
  if (typeof input !== 'string') {
    throw new DialError('invalid_data', { details: 'phone number is not a string' });
  }
  let country: CountryCode | undefined = 'US';
  if (defaultCountry !== undefined && defaultCountry !== '') {
    country = supportedCountry(defaultCountry);
    if (country === undefined) {
      throw new DialError('invalid_data', {
        details: `unknown country code: ${JSON.stringify(defaultCountry)}`,
      });
    }
  }

  // NFKC turns full-width digits and '＋' (typed with some East Asian keyboards) into ASCII.
  let compact = input.normalize('NFKC').replace(SEPARATORS, '');
  if (!/^\+?\d*$/.test(compact)) {
    throw new DialError('invalid_data', { details: 'phone number has characters other than digits' });
  }
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  const digits = compact.replace('+', '');
  if (digits.length === 0) throw new DialError('invalid_data', { details: 'phone number is empty' });
  if (digits.length > MAX_DIGITS) {
    throw new DialError('invalid_data', { details: `phone number has more than ${MAX_DIGITS} digits` });
  }

  let parsed: ReturnType<typeof parsePhoneNumberWithError>;
  try {
    parsed = parsePhoneNumberWithError(compact, country);
  } catch (error) {
    // The library's ParseError: INVALID_COUNTRY, NOT_A_NUMBER, TOO_SHORT, TOO_LONG.
    throw new DialError('invalid_data', {
      details: `phone number could not be read: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }

  const countryCode = parsed.country ?? countryForCallingCode(parsed.countryCallingCode, country);
  if (countryCode === undefined) {
    throw new DialError('invalid_data', {
      details: `calling code +${parsed.countryCallingCode} belongs to no country`,
    });
  }
  return { countryCode, phone: parsed.nationalNumber };
}
