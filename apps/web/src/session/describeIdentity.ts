import { formatPhoneInput, readE164 } from '@dial/core';
import type { User } from '../api/types';

/**
 * Who is signed in, in full, for the person's own screens ("Signed in as +44 7911 123456"): their phone
 * number grouped internationally, else their e-mail address, else their wallet's address (an account
 * signed in with a wallet). Only other people are masked (the activity list, the send review); a person's own
 * identity is theirs to read. Null for an account with none of them.
 */
export function describeIdentity(user: Pick<User, 'phone' | 'email' | 'wallet'>): string | null {
  if (user.phone !== null) {
    const phone = readE164(user.phone, null);
    return phone.ok ? formatPhoneInput(phone.e164, phone.countryCode).text : user.phone;
  }
  return user.email ?? user.wallet?.address ?? null;
}
