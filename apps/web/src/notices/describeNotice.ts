import type { Notice, NoticeKind } from '../api/types';

/** What each kind of notice says happened, in plain words (the same events the SMS and e-mails name). */
const NOTICE_TITLES: Record<NoticeKind, string> = {
  'shares-rotated': 'Your wallet’s key shares were replaced',
  'recovery-changed': 'Your wallet’s recovery was changed',
  'key-exported': 'Your wallet’s private key was exported',
  'new-browser-sign-in': 'Someone signed in to your account from a new browser',
  'method-linked': 'A way to sign in was added to your account',
  'method-removed': 'A way to sign in was removed from your account',
  'change-requested': 'Someone asked to change your account without your wallet’s confirmation',
  'change-cancelled': 'A change to your account was cancelled',
  'change-applied': 'A change asked for without your wallet’s confirmation was made to your account',
  'change-failed': 'A change asked for on your account could not be made',
  'account-secured': 'Your account was secured: other sessions ended, other browsers forgotten',
  'browser-forgotten': 'A browser was forgotten by your account and signed out',
  'sessions-ended': 'Sessions of your account were ended',
  'device-enrolled': 'A new device can now open your wallet',
  'device-removed': 'A device was removed from your wallet',
};

/**
 * A notice as the person reads it in the list: what happened (its kind in plain words) and, when the server
 * recorded one, what exactly (its summary, as a sentence).
 *
 * @example
 * ```ts
 * describeNotice({ kind: 'method-linked', summary: 'the e-mail address ann@example.com was linked' });
 * // { title: 'A way to sign in was added to your account', detail: 'The e-mail address ann@example.com was linked.' }
 * ```
 */
export function describeNotice(notice: Pick<Notice, 'kind' | 'summary'>): {
  title: string;
  detail: string | null;
} {
  // A kind this app does not know yet (a newer server) still reads as a notice.
  const title = NOTICE_TITLES[notice.kind] ?? 'Something changed on your account';
  const summary = notice.summary?.trim() ?? '';
  if (summary === '') return { title, detail: null };
  const sentence = summary.charAt(0).toUpperCase() + summary.slice(1);
  return { title, detail: /[.!?]$/.test(sentence) ? sentence : `${sentence}.` };
}

/** The wallet home's line about unread notices: "1 new security notice", "3 new security notices". */
export function describeUnread(count: number): string {
  return `${count} new security ${count === 1 ? 'notice' : 'notices'}`;
}

/**
 * Which notices of the list were new when it was opened. Marking read takes a notice and every older one,
 * so the unread notices are always the newest: the first `unreadAtOpen` of the list, however many pages
 * were loaded after the list marked them read (older pages then come back as read).
 */
export function isNewNotice(notice: Pick<Notice, 'read'>, index: number, unreadAtOpen: number): boolean {
  return !notice.read || index < unreadAtOpen;
}
