import { ERROR_CATALOGUE, type ErrorCode } from '@dial/core';
import type { AccountChange } from '../api/types';
import type { SecuredAccount } from './accountChangesApi';
import type { NoProofReason } from './proveAccountChange';

/** A moment, as the person's locale writes it ("26 Nov 2026, 09:30"). */
export function formatWhen(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** What happens when a change's cooling-off period ends, by action ("It will be linked"). */
const WILL_HAPPEN: Record<AccountChange['action'], string> = {
  'link-method': 'It will be linked',
  'remove-method': 'It will be removed',
  'use-wallet': 'That wallet will become your account’s wallet',
  'set-findable': 'It will be changed',
  'end-sessions': 'The sessions will be ended',
  'forget-browser': 'The browser will be forgotten',
  'remove-device': 'The device will be removed: it will no longer open your wallet',
  'export-key': 'It will be done',
  'cancel-change': 'It will be done',
  'secure-account': 'It will be done',
};

/** Why this browser could not confirm a change with the account's key, in a sentence. */
const WHY_NOT_CONFIRMED: Record<NoProofReason, string> = {
  'no-device-share': "This browser does not hold your wallet's key share, so it could not confirm it.",
  'wallet-not-connected': 'Your wallet is not connected in this browser, so it could not confirm it.',
  'no-signer': 'Your account has no wallet that could confirm it.',
};

/**
 * What a change asked for without proof now does, for the person who asked: "Asked: Link the e-mail address
 * a…@example.com. It will be linked on 26 Nov 2026, 09:30 unless it is cancelled. Every sign-in method of
 * the account was told." With `reason`, why it could not be made at once.
 */
export function describeAskedChange(
  change: Pick<AccountChange, 'action' | 'summary' | 'appliesAt'>,
  reason: NoProofReason | null,
  locale?: string,
): string {
  return [
    `Asked: ${sentence(change.summary)}`,
    `${WILL_HAPPEN[change.action]} on ${formatWhen(change.appliesAt, locale)} unless it is cancelled.`,
    'Every sign-in method of the account was told.',
    ...(reason === null ? [] : [WHY_NOT_CONFIRMED[reason]]),
  ].join(' ');
}

/** Who asked for a change and when: "Asked from Chrome on Linux on 24 Nov 2026, 09:30". */
export function describeRequester(
  change: Pick<AccountChange, 'requestedFrom' | 'requestedHere' | 'createdAt'>,
  locale?: string,
): string {
  const where = change.requestedHere
    ? 'this browser'
    : (change.requestedFrom ?? 'a browser Dial could not name');
  return `Asked from ${where} on ${formatWhen(change.createdAt, locale)}`;
}

/** Where a change stands: when it happens, or how and when it was settled. */
export function describeChangeStatus(
  change: Pick<AccountChange, 'status' | 'appliesAt' | 'settledAt' | 'outcome'>,
  locale?: string,
): string {
  const settled = change.settledAt === null ? '' : ` on ${formatWhen(change.settledAt, locale)}`;
  switch (change.status) {
    case 'pending':
      return `Happens on ${formatWhen(change.appliesAt, locale)} unless it is cancelled`;
    case 'applied':
      return `Done${settled}`;
    case 'cancelled':
      return `Cancelled${settled}`;
    case 'failed':
      return `Not done${settled}${change.outcome === null ? '' : `: ${failureReason(change.outcome)}`}`;
  }
}

/** The pending changes this session did not ask for: someone else may be at work on the account. */
export function pendingNotAskedHere(changes: readonly AccountChange[]): AccountChange[] {
  return changes.filter((change) => change.status === 'pending' && !change.requestedHere);
}

/** What "Secure my account" did, in a sentence. */
export function describeSecured(result: SecuredAccount): string {
  const done = [
    count(result.endedSessions, 'other session', 'ended'),
    count(
      result.removedMethods,
      'sign-in method not confirmed by your wallet',
      'removed',
      'sign-in methods not confirmed by your wallet',
    ),
    count(result.cancelledChanges, 'pending change', 'cancelled'),
    count(result.forgottenBrowsers, 'other browser', 'forgotten'),
  ].filter((part) => part !== null);
  if (done.length === 0) {
    return 'Your account is secure: there was no other session, unconfirmed method, pending change or other browser.';
  }
  return `Your account is secure: ${list(done)}.`;
}

function count(n: number, one: string, verb: string, many = `${one}s`): string | null {
  return n === 0 ? null : `${n} ${n === 1 ? one : many} ${verb}`;
}

function list(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A failed change's outcome (an error code) as the catalogue says it, else as it is. */
function failureReason(outcome: string): string {
  return outcome in ERROR_CATALOGUE ? ERROR_CATALOGUE[outcome as ErrorCode].message : outcome;
}
