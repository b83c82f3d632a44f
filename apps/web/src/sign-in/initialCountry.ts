import { formatPhoneInput } from '@dial/core';
import { type CountryStorage, isCountry, startingCountry } from './countryList';

/**
 * The country a phone field starts with: the person's own (their number's, given for the send form), else
 * the last one picked on this browser, else the browser's language region, else the United States. Reading
 * the number takes the phone library: the sign-in form, which has no number yet, uses `startingCountry`.
 */
export function initialCountry(ownPhone?: string | null, storage?: CountryStorage): string {
  const own = ownPhone ? formatPhoneInput(ownPhone, '').countryCode : '';
  return isCountry(own) ? own : startingCountry(storage);
}
