import type { Channel } from '@dial/core';
import type { AccountEventKind } from '../db/database.js';

/**
 * How long a code lives, as its message says it: `10 minutes` (in whole minutes when it is, else seconds).
 *
 * @param codeTtlSeconds - the code's lifetime, the one policy value (`config.otp.codeTtlSeconds`) that the
 * code's row and the route's `expiresInSeconds` take too.
 */
function lifetime(codeTtlSeconds: number): string {
  if (codeTtlSeconds % 60 !== 0) return codeTtlSeconds === 1 ? '1 second' : `${codeTtlSeconds} seconds`;
  const minutes = codeTtlSeconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * Writes the subject and text that carry a one-time code.
 *
 * @param kind - `sms` for a short single paragraph, `email` for a subject that shows the code and a longer text.
 * @param code - the one-time code, e.g. `123456`.
 * @param codeTtlSeconds - how long the code lives (`config.otp.codeTtlSeconds`), said in the text.
 * @param appName - the product name shown to the person.
 * @example
 * createMessageText('sms', '123456', 600).text
 * // "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone."
 */
export function createMessageText(
  kind: Channel,
  code: string,
  codeTtlSeconds: number,
  appName = 'Dial',
): { subject: string; text: string } {
  const guidance = `It expires in ${lifetime(codeTtlSeconds)}. Don't share it with anyone.`;
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
 * createReauthMessageText('sms', '123456', 600).text
 * // "Your Dial confirmation code is 123456. Someone asked to confirm a sensitive action on your account. …"
 */
export function createReauthMessageText(
  kind: Channel,
  code: string,
  codeTtlSeconds: number,
  appName = 'Dial',
): { subject: string; text: string } {
  const warning = `If it wasn't you, don't share this code with anyone.`;
  if (kind === 'sms') {
    return {
      subject: `Your ${appName} confirmation code`,
      text: `Your ${appName} confirmation code is ${code}. Someone asked to confirm a sensitive action on your account. ${warning} It expires in ${lifetime(codeTtlSeconds)}.`,
    };
  }
  return {
    subject: `Your ${appName} confirmation code: ${code}`,
    text: [
      `Your ${appName} confirmation code is ${code}.`,
      '',
      `Someone asked to confirm a sensitive action on your ${appName} account, such as showing the wallet's private key or changing how it is recovered.`,
      `It expires in ${lifetime(codeTtlSeconds)}. ${warning}`,
      `If you didn't ask for it, sign out of ${appName} on devices you don't recognise.`,
      '',
    ].join('\n'),
  };
}

/**
 * Writes the subject and text that carry a code proving a phone number or e-mail address someone wants to
 * link to their account: worded apart from sign-in codes, so the owner of a number someone else is trying
 * to link does not pass the code on.
 *
 * @example
 * createLinkMessageText('sms', '123456', 600).text
 * // "Your Dial code to link this number to an account is 123456. Didn't ask? Don't share it: …"
 */
export function createLinkMessageText(
  kind: Channel,
  code: string,
  codeTtlSeconds: number,
  appName = 'Dial',
): { subject: string; text: string } {
  if (kind === 'sms') {
    return {
      subject: `Your ${appName} link code`,
      text: `Your ${appName} code to link this number to an account is ${code}. Didn't ask? Don't share it: money sent to this number could go to someone else.`,
    };
  }
  return {
    subject: `Your ${appName} code to link this address: ${code}`,
    text: [
      `Your ${appName} code to link this e-mail address to a ${appName} account is ${code}.`,
      '',
      `It expires in ${lifetime(codeTtlSeconds)}. If you didn't ask for it, don't share it with anyone: it would let someone else's account use your address.`,
      '',
    ].join('\n'),
  };
}

/** What each notice says happened, as the middle of a sentence ("your wallet's recovery was changed"). */
const NOTICE_EVENTS: Record<AccountEventKind, string> = {
  'shares-rotated': "your wallet's key shares were replaced",
  'recovery-changed': "your wallet's recovery was changed",
  'key-exported': "your wallet's private key was exported",
  'new-browser-sign-in': 'someone signed in to your account from a new browser',
  'method-linked': 'a new way to sign in was added to your account',
  'method-removed': 'a way to sign in was removed from your account',
  'change-requested': 'someone asked to change your account',
  'change-cancelled': 'a change to your account was cancelled',
  'change-applied': 'a change asked for without your wallet was made',
  'change-failed': 'a change asked for on your account was not made',
  'account-secured': 'your account was secured',
  'browser-forgotten': 'a browser was signed out and forgotten',
  'sessions-ended': 'sessions of your account were ended',
  'device-enrolled': 'a new device can open your wallet',
  'device-removed': 'a device was removed from your wallet',
};

/**
 * What to do when it was not them, for the notices of a device (their summary names it): a device the owner
 * does not know holds a share of their key, so it is removed and the account secured at once; a device
 * removed by someone else is added again once the account is secured.
 */
function deviceAdvice(kind: AccountEventKind, appName: string, channel: Channel): string | undefined {
  if (kind === 'device-enrolled') {
    return channel === 'sms'
      ? 'If this was not you, remove it in Settings > Devices.'
      : `If this was not you, remove it in ${appName} (Settings > Devices) and choose "Secure my account".`;
  }
  if (kind === 'device-removed') {
    return channel === 'sms'
      ? `If this was not you, open ${appName}: "Secure my account".`
      : `If this was not you, open ${appName}, choose "Secure my account", then add your device again.`;
  }
  return undefined;
}

/**
 * Writes the subject and text of a notice that tells the owner something security-relevant happened on
 * their account: short enough for one SMS, with what to do when it was not them. A notice carries no code
 * and no secret.
 *
 * @param kind - what happened.
 * @param channel - `sms` for one short paragraph; `email` adds when it happened (UTC).
 * @param at - when it happened.
 * @example
 * createNoticeText('recovery-changed', 'sms', new Date()).text
 * // "Dial: your wallet's recovery was changed. Was this not you? Sign in and check your wallet's security, or contact your Dial operator."
 */
export function createNoticeText(
  kind: AccountEventKind,
  channel: Channel,
  at: Date,
  appName = 'Dial',
  summary?: string | undefined,
): { subject: string; text: string } {
  const event = NOTICE_EVENTS[kind];
  const what = summary === undefined ? '' : ` ${capitalise(summary)}.`;
  const forDevice = deviceAdvice(kind, appName, channel);
  if (channel === 'sms') {
    // One 160-character SMS in the GSM alphabet: the event and what to do; the details are in the app and
    // in the e-mail. A device's notice names the device when that still fits (its name is one of
    // describeUserAgent's fixed labels, "Chrome on macOS").
    const advice =
      forDevice ??
      (kind === 'change-requested'
        ? `Not you? Open ${appName} and choose "Secure my account".`
        : `Was this not you? Sign in and check your wallet's security, or contact your ${appName} operator.`);
    const named = `${appName}: ${event}: ${summary ?? ''}. ${advice}`;
    const text =
      forDevice !== undefined && summary !== undefined && named.length <= 160
        ? named
        : `${appName}: ${event}. ${advice}`;
    return { subject: `${appName}: ${event}`, text };
  }
  const advice =
    forDevice ??
    (kind === 'change-requested'
      ? `Was this not you? Open ${appName} in your browser and choose "Secure my account" to cancel it.`
      : `Was this not you? Sign in and check your wallet's security, or contact your ${appName} operator.`);
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    subject: `${appName}: ${event}`,
    text: [`${capitalise(event)} (${when}).${what}`, '', advice, ''].join('\n'),
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
