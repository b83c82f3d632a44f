import { formatPhoneInput, readE164 } from '@dial/core';
import type { SignInMethod } from '../api/types';

/** What each kind of sign-in method is called on the settings screen. */
export const METHOD_KIND_LABELS: Record<SignInMethod['kind'], string> = {
  phone: 'Phone number',
  email: 'Email address',
  wallet: 'Wallet',
  passkey: 'Passkey',
};

/**
 * A sign-in method's value in full, as its owner reads it: a phone number grouped internationally
 * ("+44 7400 123456"), an e-mail address or a wallet's checksummed address as stored, a passkey by its name
 * (its credential id means nothing to a person).
 */
export function formatMethodValue(
  method: Pick<SignInMethod, 'kind' | 'value'> & { name?: string | null },
): string {
  if (method.kind === 'passkey') return method.name ?? 'Passkey';
  if (method.kind !== 'phone') return method.value;
  const phone = readE164(method.value, null);
  return phone.ok ? formatPhoneInput(phone.e164, phone.countryCode).text : method.value;
}

/** A day, as the person's locale writes it ("24 Nov 2026"). */
export function formatDay(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

/** A moment, as the person's locale writes it ("24 Nov 2026, 09:30"). */
export function formatMoment(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
