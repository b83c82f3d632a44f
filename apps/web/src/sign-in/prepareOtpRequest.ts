import { formatPhoneInput, isValidEmail, normalizeEmail, readE164 } from '@dial/core';
import type { OtpChannel } from '../api/types';

/** What the sign-in form holds; kept while the code is entered so "Use a different number" restores it. */
export interface SignInDraft {
  channel: OtpChannel;
  /** ISO code of the country picked for the phone number. */
  countryCode: string;
  /** The phone field's text, as formatted while typing. */
  phone: string;
  email: string;
}

export type OtpRequest =
  | { ok: true; channel: OtpChannel; to: string; display: string }
  | { ok: false; message: string };

/**
 * Checks the form before anything is sent: a phone number must be valid for its country (it is sent as
 * E.164), an e-mail address must look deliverable (it is sent normalised). `countryName` names a country
 * code in the message.
 */
export function prepareOtpRequest(draft: SignInDraft, countryName: (code: string) => string): OtpRequest {
  if (draft.channel === 'sms') {
    if (draft.phone.trim() === '') return { ok: false, message: 'Enter your phone number.' };
    const phone = readE164(draft.phone, draft.countryCode);
    if (phone.ok) {
      // Grouped as people write it ("+44 7400 123456"); formatPhoneInternational does not group digits.
      const display = formatPhoneInput(phone.e164, phone.countryCode).text;
      return { ok: true, channel: 'sms', to: phone.e164, display };
    }
    // Not a phone number at all: the same message as an invalid one, naming the picked country.
    return {
      ok: false,
      message: `Enter a valid phone number for ${countryName(phone.countryCode ?? draft.countryCode)}.`,
    };
  }

  if (draft.email.trim() === '') return { ok: false, message: 'Enter your email address.' };
  if (!isValidEmail(draft.email)) {
    return { ok: false, message: 'Enter a valid email address, like name@example.com.' };
  }
  const email = normalizeEmail(draft.email);
  return { ok: true, channel: 'email', to: email, display: email };
}
