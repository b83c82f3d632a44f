import { AsYouType } from 'libphonenumber-js/mobile';
import { countryForCallingCode, supportedCountry } from './phoneCountry.js';

/**
 * Calling codes shared by countries that each run their own numbers: the North American plan (+1, where an
 * area code belongs to one country: 416 Canada, 212 the United States, 876 Jamaica) and +7 (Russia,
 * Kazakhstan). For these the number tells its country. The other shared codes cover one country's plan and
 * places that use it (+44: the United Kingdom with Guernsey, Jersey and the Isle of Man; +47 Norway with
 * Svalbard; …), so their numbers show the main country.
 */
const COUNTRY_BY_NUMBER = new Set(['1', '7']);

/** What a phone field shows after a keystroke, and the country its flag should show. */
export interface PhoneInputState {
  /** The formatted text for the field. */
  text: string;
  /** ISO 3166-1 alpha-2 code of the country the number belongs to, as far as it can be told. */
  countryCode: string;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/**
 * Formats a phone field as the person types (libphonenumber's `AsYouType`).
 *
 * When the text starts with `+` or `00` (`00` becomes `+`), it is formatted as an international number and
 * the country is the calling code's: `countryCode` when it shares the calling code typed so far, else the
 * library's main country for it (`+44 7911 123456` is the United Kingdom, though the number is in
 * Guernsey's range). Only for +1 and +7, whose countries each run their own numbers, does the number decide,
 * once the library can tell from its digits (`+1 416 234 5678` is Canada, `+1 212…` the United States; the
 * main country or `countryCode` before). Until a calling code is complete (or for non-geographic ones such
 * as `+800`) `countryCode` is kept. Otherwise the text is
 * formatted as a national number of `countryCode`, which is returned unchanged. No digit the person typed is
 * ever dropped: if formatting would lose one, the text is returned as typed.
 *
 * @param input - The field's current text.
 * @param countryCode - ISO 3166-1 alpha-2 code of the country chosen in the field.
 * @returns The text to show and the country to show.
 *
 * @example
 * ```ts
 * formatPhoneInput('2015550123', 'US'); // { text: '(201) 555-0123', countryCode: 'US' }
 * formatPhoneInput('+33612345678', 'US'); // { text: '+33 6 12 34 56 78', countryCode: 'FR' }
 * formatPhoneInput('0044 7400 123456', 'US'); // { text: '+44 7400 123456', countryCode: 'GB' }
 * formatPhoneInput('+1 416 234 5678', 'US'); // { text: '+1 416 234 5678', countryCode: 'CA' }
 * ```
 */
export function formatPhoneInput(input: string, countryCode: string): PhoneInputState {
  // NFKC turns full-width digits and '＋' into ASCII, so the digit check below compares like with like.
  const typed = input.normalize('NFKC').trimStart();
  const source = typed.startsWith('00') ? `+${typed.slice(2)}` : typed;

  if (source.startsWith('+')) {
    const typer = new AsYouType();
    const text = typer.input(source);
    const callingCode = typer.getCallingCode();
    const byNumber =
      callingCode !== undefined && COUNTRY_BY_NUMBER.has(callingCode) ? typer.getCountry() : undefined;
    const detected = byNumber ?? countryForCallingCode(callingCode, countryCode);
    return { text: keepDigits(text, source), countryCode: detected ?? countryCode };
  }

  const typer = new AsYouType(supportedCountry(countryCode));
  return { text: keepDigits(typer.input(input), input), countryCode };
}

function keepDigits(formatted: string, typed: string): string {
  return digitsOf(formatted) === digitsOf(typed.normalize('NFKC')) ? formatted : typed;
}
