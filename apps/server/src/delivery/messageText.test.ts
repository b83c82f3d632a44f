import { describe, expect, it } from 'vitest';
import { DEFAULT_OTP_POLICY } from '../config/otpPolicy.js';
import {
  createLinkMessageText,
  createMessageText,
  createNoticeText,
  createReauthMessageText,
} from './messageText.js';

/** The codes' lifetime: the policy's, which every message says. */
const TTL = DEFAULT_OTP_POLICY.codeTtlSeconds;

describe('createMessageText', () => {
  it('writes a one-paragraph SMS with the code, its lifetime and a warning', () => {
    expect(createMessageText('sms', '123456', TTL)).toEqual({
      subject: 'Your Dial code',
      text: "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone.",
    });
  });

  it('puts the code in the e-mail subject and the same guidance in the text', () => {
    expect(createMessageText('email', '123456', TTL)).toEqual({
      subject: 'Your Dial sign-in code: 123456',
      text:
        'Your Dial sign-in code is 123456.\n\n' +
        "It expires in 10 minutes. Don't share it with anyone.\n" +
        "If you didn't try to sign in to Dial, you can ignore this e-mail.\n",
    });
  });

  it('says the lifetime it is given, the policy value the code is stored with', () => {
    expect(createMessageText('sms', '123456', 300).text).toContain('It expires in 5 minutes.');
    expect(createMessageText('email', '123456', 60).text).toContain('It expires in 1 minute.');
    expect(createReauthMessageText('sms', '123456', 90).text).toContain('It expires in 90 seconds.');
    expect(createLinkMessageText('email', '123456', 1200).text).toContain('It expires in 20 minutes.');
  });

  it('uses the given app name', () => {
    expect(createMessageText('sms', '000111', TTL, 'Acme Wallet').text).toBe(
      "Your Acme Wallet code is 000111. It expires in 10 minutes. Don't share it with anyone.",
    );
    expect(createMessageText('email', '000111', TTL, 'Acme Wallet').subject).toBe(
      'Your Acme Wallet sign-in code: 000111',
    );
  });
});

describe('createReauthMessageText', () => {
  it('calls it a confirmation code and says someone asked to confirm a sensitive action', () => {
    expect(createReauthMessageText('sms', '123456', TTL)).toEqual({
      subject: 'Your Dial confirmation code',
      text:
        'Your Dial confirmation code is 123456. Someone asked to confirm a sensitive action on your account. ' +
        "If it wasn't you, don't share this code with anyone. It expires in 10 minutes.",
    });
  });

  it('puts the code in the e-mail subject, never the sign-in wording', () => {
    const { subject, text } = createReauthMessageText('email', '654321', TTL);
    expect(subject).toBe('Your Dial confirmation code: 654321');
    expect(text).toContain('Your Dial confirmation code is 654321.');
    expect(text).toContain('Someone asked to confirm a sensitive action on your Dial account');
    expect(text).toContain('It expires in 10 minutes.');
    expect(text).not.toMatch(/sign-in code/);
  });
});

describe('createLinkMessageText', () => {
  it('says the code links the number to an account and what sharing it would cost, in one SMS', () => {
    const { subject, text } = createLinkMessageText('sms', '123456', TTL);
    expect(subject).toBe('Your Dial link code');
    expect(text).toBe(
      "Your Dial code to link this number to an account is 123456. Didn't ask? Don't share it: money sent " +
        'to this number could go to someone else.',
    );
    expect(text.length).toBeLessThanOrEqual(160);
  });

  it('puts the code in the e-mail subject, never the sign-in wording', () => {
    const { subject, text } = createLinkMessageText('email', '654321', TTL);
    expect(subject).toBe('Your Dial code to link this address: 654321');
    expect(text).toContain('Your Dial code to link this e-mail address to a Dial account is 654321.');
    expect(text).toContain('It expires in 10 minutes.');
    expect(text).not.toMatch(/sign-in code/);
  });
});

describe('createNoticeText', () => {
  const at = new Date('2030-01-01T12:34:56.000Z');

  it('writes one SMS that says what happened and what to do when it was not them', () => {
    expect(createNoticeText('recovery-changed', 'sms', at)).toEqual({
      subject: "Dial: your wallet's recovery was changed",
      text:
        "Dial: your wallet's recovery was changed. Was this not you? Sign in and check your wallet's " +
        'security, or contact your Dial operator.',
    });
  });

  it('says when it happened in the e-mail, in UTC to the minute', () => {
    const { subject, text } = createNoticeText('new-browser-sign-in', 'email', at, 'Acme Wallet');
    expect(subject).toBe('Acme Wallet: someone signed in to your account from a new browser');
    expect(text).toBe(
      'Someone signed in to your account from a new browser (2030-01-01 12:34 UTC).\n\n' +
        "Was this not you? Sign in and check your wallet's security, or contact your Acme Wallet operator.\n",
    );
  });

  it('fits every notice in one 160-character SMS and never mentions a code', () => {
    for (const kind of [
      'shares-rotated',
      'recovery-changed',
      'key-exported',
      'new-browser-sign-in',
      'method-linked',
      'method-removed',
      'change-requested',
      'change-cancelled',
      'change-applied',
      'change-failed',
      'account-secured',
      'browser-forgotten',
      'sessions-ended',
      'device-enrolled',
      'device-removed',
    ] as const) {
      // With a summary too: the details go to the app and the e-mail, never past one SMS.
      const { text } = createNoticeText(kind, 'sms', at, 'Dial', 'link the e-mail address ann@example.com');
      // The GSM alphabet (no curly quote), which keeps an SMS to one 160-character segment.
      expect(text).not.toMatch(/[’“”]/);
      expect(text.length).toBeLessThanOrEqual(160);
      expect(text).not.toMatch(/\d{6}|code/i);
    }
  });

  it("names the device in a device's notice, and says what to do if it was not them", () => {
    const sms = createNoticeText(
      'device-enrolled',
      'sms',
      at,
      'Dial',
      'Chrome on macOS, linked from another device',
    );
    expect(sms.text).toBe(
      'Dial: a new device can open your wallet: Chrome on macOS, linked from another device. ' +
        'If this was not you, remove it in Settings > Devices.',
    );
    expect(sms.text.length).toBeLessThanOrEqual(160);
    const email = createNoticeText('device-removed', 'email', at, 'Dial', 'Safari on iPhone was removed');
    expect(email.text).toBe(
      'A device was removed from your wallet (2030-01-01 12:34 UTC). Safari on iPhone was removed.\n\n' +
        'If this was not you, open Dial, choose "Secure my account", then add your device again.\n',
    );
  });
});
