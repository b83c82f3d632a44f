/** The longest address SMTP allows (RFC 5321's 256-character path, less its angle brackets). */
const MAX_EMAIL_LENGTH = 254;

/**
 * Whether a string is a plausible e-mail address once trimmed and lower-cased: at most 254 characters, no
 * whitespace inside, exactly one `@`, something before it, and a domain after it made of non-empty labels
 * with at least one dot. This is a plausibility check for a sign-in form; only delivering a code proves an
 * address works.
 *
 * @param input - What the person typed.
 * @returns `true` when {@link normalizeEmail} would accept it.
 *
 * @example
 * ```ts
 * isValidEmail(' Ada@Example.com '); // true
 * isValidEmail('ada@localhost'); // false
 * ```
 */
export function isValidEmail(input: string): boolean {
  if (typeof input !== 'string') return false;
  // Checked as normalizeEmail stores it: lower-casing can lengthen some non-ASCII characters.
  const email = input.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || /\s/.test(email)) return false;
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;
  const labels = domain.split('.');
  return local.length > 0 && labels.length >= 2 && labels.every((label) => label.length > 0);
}
