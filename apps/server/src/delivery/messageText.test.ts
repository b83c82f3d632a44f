import { describe, expect, it } from 'vitest';
import { createMessageText } from './messageText.js';

describe('createMessageText', () => {
  it('writes a one-paragraph SMS with the code, its lifetime and a warning', () => {
    expect(createMessageText('sms', '123456')).toEqual({
      subject: 'Your Dial code',
      text: "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone.",
    });
  });

  it('puts the code in the e-mail subject and the same guidance in the text', () => {
    expect(createMessageText('email', '123456')).toEqual({
      subject: 'Your Dial sign-in code: 123456',
      text:
        'Your Dial sign-in code is 123456.\n\n' +
        "It expires in 10 minutes. Don't share it with anyone.\n" +
        "If you didn't try to sign in to Dial, you can ignore this e-mail.\n",
    });
  });

  it('uses the given app name', () => {
    expect(createMessageText('sms', '000111', 'Acme Wallet').text).toBe(
      "Your Acme Wallet code is 000111. It expires in 10 minutes. Don't share it with anyone.",
    );
    expect(createMessageText('email', '000111', 'Acme Wallet').subject).toBe(
      'Your Acme Wallet sign-in code: 000111',
    );
  });
});
