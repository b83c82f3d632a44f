import { hasControlCharacter } from './hasControlCharacter.js';

/** The longest address SMTP allows (RFC 5321's 256-character path, less its angle brackets). */
const MAX_EMAIL_LENGTH = 254;
/** The longest local part SMTP allows (RFC 5321, 4.5.3.1.1). */
const MAX_LOCAL_LENGTH = 64;

/** RFC 5322 `dot-atom-text`: atext runs joined by single dots (no quoted strings, no comments, no `:`). */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** A DNS host name label: letters, digits and inner hyphens, at most 63 characters (A-labels included). */
const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether a string is an e-mail address Dial accepts as an identifier, once trimmed and lower-cased: a plain
 * `local@domain` of at most 254 characters where the local part is an RFC 5322 dot-atom (ASCII letters,
 * digits and ``!#$%&'*+/=?^_`{|}~-``, single dots between them, at most 64 characters) and the domain a host
 * name of at least two labels (letters, digits, inner hyphens; the last label not all digits).
 *
 * Deliberately stricter than RFC 5322: no quoted local parts, no comments, no IP-address literals, no
 * non-ASCII characters (write an international domain as its `xn--` form), and no control characters
 * anywhere, not even at the ends. Each of those lets two different strings reach one mailbox (mail
 * software drops a control character, folds a quoted string, or maps a look-alike letter), and an
 * identifier must name exactly one mailbox: otherwise one mailbox could hold two accounts. Only delivering
 * a code proves an address works.
 *
 * @param input - What the person typed.
 * @returns `true` when {@link normalizeEmail} would accept it.
 *
 * @example
 * ```ts
 * isValidEmail(' Ada@Example.com '); // true
 * isValidEmail('ada@localhost'); // false
 * isValidEmail('x\u0001y@example.com'); // false
 * isValidEmail('reauth:ada@example.com'); // false
 * ```
 */
export function isValidEmail(input: string): boolean {
  if (typeof input !== 'string' || hasControlCharacter(input)) return false;
  // Checked as normalizeEmail stores it.
  const email = input.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH) return false;
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  return (
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    !/^\d+$/.test(labels.at(-1) ?? '')
  );
}
