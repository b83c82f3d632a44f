import type { Channel } from './transport.js';

/** How long a code lives; keep in step with the server's `expiresInSeconds` (600). */
const EXPIRES_IN_MINUTES = 10;

/**
 * Writes the subject and text that carry a one-time code.
 *
 * @param kind - `sms` for a short single paragraph, `email` for a subject that shows the code and a longer text.
 * @param code - the one-time code, e.g. `123456`.
 * @param appName - the product name shown to the person.
 * @example
 * createMessageText('sms', '123456').text
 * // "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone."
 */
export function createMessageText(
  kind: Channel,
  code: string,
  appName = 'Dial',
): { subject: string; text: string } {
  const guidance = `It expires in ${EXPIRES_IN_MINUTES} minutes. Don't share it with anyone.`;
  if (kind === 'sms') {
    return { subject: `Your ${appName} code`, text: `Your ${appName} code is ${code}. ${guidance}` };
  }
  return {
    subject: `Your ${appName} sign-in code: ${code}`,
    text: [
      `Your ${appName} sign-in code is ${code}.`,
      '',
      guidance,
      `If you didn't try to sign in to ${appName}, you can ignore this e-mail.`,
      '',
    ].join('\n'),
  };
}

/**
 * Writes the subject and text that carry a re-authentication code: worded apart from sign-in codes, so a
 * person who did not ask to confirm anything (someone else holds their session) notices and does not pass
 * the code on.
 *
 * @example
 * createReauthMessageText('sms', '123456').text
 * // "Your Dial confirmation code is 123456. Someone asked to confirm a sensitive action on your account. …"
 */
export function createReauthMessageText(
  kind: Channel,
  code: string,
  appName = 'Dial',
): { subject: string; text: string } {
  const warning = `If it wasn't you, don't share this code with anyone.`;
  if (kind === 'sms') {
    return {
      subject: `Your ${appName} confirmation code`,
      text: `Your ${appName} confirmation code is ${code}. Someone asked to confirm a sensitive action on your account. ${warning} It expires in ${EXPIRES_IN_MINUTES} minutes.`,
    };
  }
  return {
    subject: `Your ${appName} confirmation code: ${code}`,
    text: [
      `Your ${appName} confirmation code is ${code}.`,
      '',
      `Someone asked to confirm a sensitive action on your ${appName} account, such as showing the wallet's private key or changing how it is recovered.`,
      `It expires in ${EXPIRES_IN_MINUTES} minutes. ${warning}`,
      `If you didn't ask for it, sign out of ${appName} on devices you don't recognise.`,
      '',
    ].join('\n'),
  };
}
