import { maskIdentifier } from '@dial/core';
import type { User } from '../api/types';

/**
 * The signed-in identity, masked for the wallet screen: a phone number as `maskIdentifier` shows it
 * ("*3456"); an e-mail address with its first character and its domain ("a•••@example.com"), since its last
 * four characters (".com") would not say which address it is.
 */
export function describeIdentity(user: Pick<User, 'phone' | 'email'>): string | null {
  if (user.phone !== null) return maskIdentifier(user.phone);
  if (user.email === null) return null;
  const at = user.email.lastIndexOf('@');
  if (at <= 0) return maskIdentifier(user.email);
  return `${user.email.slice(0, 1)}•••${user.email.slice(at)}`;
}
