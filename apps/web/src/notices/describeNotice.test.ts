import { describe, expect, it } from 'vitest';
import type { NoticeKind } from '../api/types';
import { describeNotice, describeUnread, isNewNotice } from './describeNotice';

describe('describeNotice', () => {
  it.each<[NoticeKind, string]>([
    ['shares-rotated', 'Your wallet’s key shares were replaced'],
    ['recovery-changed', 'Your wallet’s recovery was changed'],
    ['key-exported', 'Your wallet’s private key was exported'],
    ['new-browser-sign-in', 'Someone signed in to your account from a new browser'],
    ['method-linked', 'A way to sign in was added to your account'],
    ['method-removed', 'A way to sign in was removed from your account'],
    ['change-requested', 'Someone asked to change your account without your wallet’s confirmation'],
    ['change-cancelled', 'A change to your account was cancelled'],
    ['change-applied', 'A change asked for without your wallet’s confirmation was made to your account'],
    ['change-failed', 'A change asked for on your account could not be made'],
    ['account-secured', 'Your account was secured: other sessions ended, other browsers forgotten'],
    ['browser-forgotten', 'A browser was forgotten by your account and signed out'],
    ['sessions-ended', 'Sessions of your account were ended'],
    ['device-enrolled', 'A new device can now open your wallet'],
    ['device-removed', 'A device was removed from your wallet'],
  ])('says what a %s notice is about in plain words', (kind, title) => {
    expect(describeNotice({ kind, summary: null })).toEqual({ title, detail: null });
  });

  it('adds the summary the server recorded as a sentence', () => {
    expect(
      describeNotice({ kind: 'change-requested', summary: 'link the e-mail address mallory@example.com' }),
    ).toEqual({
      title: 'Someone asked to change your account without your wallet’s confirmation',
      detail: 'Link the e-mail address mallory@example.com.',
    });
    expect(
      describeNotice({ kind: 'method-removed', summary: 'The phone number +447400123456 was removed.' }),
    ).toMatchObject({ detail: 'The phone number +447400123456 was removed.' });
  });

  it('names the device the server recorded for a device enrolled or removed', () => {
    expect(
      describeNotice({ kind: 'device-enrolled', summary: 'Chrome on macOS, linked from another device' }),
    ).toEqual({
      title: 'A new device can now open your wallet',
      detail: 'Chrome on macOS, linked from another device.',
    });
    expect(describeNotice({ kind: 'device-removed', summary: 'Safari on iPhone was removed' })).toEqual({
      title: 'A device was removed from your wallet',
      detail: 'Safari on iPhone was removed.',
    });
  });

  it('gives no detail for an empty summary', () => {
    expect(describeNotice({ kind: 'key-exported', summary: '  ' }).detail).toBeNull();
  });

  it('still reads a kind this app does not know (a newer server) as a notice', () => {
    expect(describeNotice({ kind: 'passkey-added' as NoticeKind, summary: null })).toEqual({
      title: 'Something changed on your account',
      detail: null,
    });
  });
});

describe('describeUnread', () => {
  it('counts the new notices in words', () => {
    expect(describeUnread(1)).toBe('1 new security notice');
    expect(describeUnread(2)).toBe('2 new security notices');
  });
});

describe('isNewNotice', () => {
  it('marks the unread ones, and the first unreadAtOpen of the list, read since it was opened', () => {
    expect(isNewNotice({ read: false }, 5, 0)).toBe(true);
    expect(isNewNotice({ read: true }, 1, 2)).toBe(true);
    expect(isNewNotice({ read: true }, 2, 2)).toBe(false);
  });
});
