import type { User } from '../api/types';

/** The shortest recovery password Dial accepts, in characters. */
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 256;

/**
 * What is wrong with a new recovery password's length, or null when it is acceptable. Then the strength
 * check (passwordStrength.ts, loaded by the screen) refuses what a guesser tries first: common passwords,
 * single words and names, keyboard rows, dates. The message says what to do, not only what is wrong.
 */
export function checkNewPassword(password: string): string | null {
  const length = [...password.normalize('NFKC')].length;
  if (length === 0) return 'Choose a recovery password.';
  if (password.trim().length === 0) return 'The password cannot be only spaces.';
  if (length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${length}). A few unrelated words work well.`;
  }
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

/** The confirmation field's error, or null when it matches. */
export function checkConfirmation(password: string, confirmation: string): string | null {
  if (confirmation === '') return 'Type the password again to confirm it.';
  return confirmation.normalize('NFKC') === password.normalize('NFKC')
    ? null
    : 'The two passwords are not the same.';
}

/**
 * What a guesser knows of this person, for the strength check to refuse in a password: their phone number
 * (with and without its `+`), their e-mail address and its name part, and the app's own words.
 */
export function passwordUserInputs(user: Pick<User, 'phone' | 'email'>): string[] {
  const inputs = ['dial', 'wallet', 'recovery'];
  if (user.phone !== null) inputs.push(user.phone, user.phone.replace(/^\+/, ''));
  if (user.email !== null) inputs.push(user.email, user.email.split('@')[0] ?? '');
  return inputs.filter((input) => input !== '');
}
