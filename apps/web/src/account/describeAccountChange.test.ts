import { describe, expect, it } from 'vitest';
import type { AccountChange } from '../api/types';
import {
  describeAskedChange,
  describeChangeStatus,
  describeRequester,
  describeSecured,
  formatWhen,
  pendingNotAskedHere,
} from './describeAccountChange';

function change(fields: Partial<AccountChange> = {}): AccountChange {
  return {
    id: '6f1c1c1e-0000-4000-8000-000000000001',
    action: 'link-method',
    summary: 'Link the e-mail address mallory@example.com',
    status: 'pending',
    requestedFrom: 'Chrome on Linux',
    requestedHere: false,
    createdAt: '2026-11-24T09:30:00.000Z',
    appliesAt: '2026-11-26T09:30:00.000Z',
    settledAt: null,
    outcome: null,
    ...fields,
  };
}

describe('describeAskedChange', () => {
  it('says what was asked, when it happens in the given locale, and that every method was told', () => {
    expect(describeAskedChange(change(), null, 'en-GB')).toBe(
      `Asked: Link the e-mail address mallory@example.com. It will be linked on ${formatWhen('2026-11-26T09:30:00.000Z', 'en-GB')} unless it is cancelled. Every sign-in method of the account was told.`,
    );
    expect(formatWhen('2026-11-26T09:30:00.000Z', 'en-GB')).toMatch(/^26 Nov 2026, \d{2}:30$/);
  });

  it('says what happens by action, and why this browser could not confirm it', () => {
    const removal = change({ action: 'remove-method', summary: 'Remove the phone number +447400123456' });
    expect(describeAskedChange(removal, 'no-device-share', 'en-GB')).toMatch(
      /^Asked: Remove the phone number \+447400123456\. It will be removed on .+ unless it is cancelled\. Every sign-in method of the account was told\. This browser does not hold your wallet's key share, so it could not confirm it\.$/,
    );
    const ending = change({ action: 'end-sessions', summary: 'End every other session' });
    expect(describeAskedChange(ending, 'wallet-not-connected', 'en-GB')).toContain(
      'The sessions will be ended on ',
    );
    expect(describeAskedChange(ending, 'wallet-not-connected', 'en-GB')).toMatch(
      /Your wallet is not connected in this browser, so it could not confirm it\.$/,
    );
  });

  it('does not double a summary’s own full stop', () => {
    expect(describeAskedChange(change({ summary: 'Forget a browser.' }), null, 'en-GB')).toMatch(
      /^Asked: Forget a browser\. It/,
    );
  });
});

describe('describeRequester', () => {
  it('names the browser that asked, or this one, and when', () => {
    const when = formatWhen('2026-11-24T09:30:00.000Z', 'en-GB');
    expect(describeRequester(change(), 'en-GB')).toBe(`Asked from Chrome on Linux on ${when}`);
    expect(describeRequester(change({ requestedHere: true }), 'en-GB')).toBe(
      `Asked from this browser on ${when}`,
    );
    expect(describeRequester(change({ requestedFrom: null }), 'en-GB')).toBe(
      `Asked from a browser Dial could not name on ${when}`,
    );
  });
});

describe('describeChangeStatus', () => {
  const settledAt = '2026-11-25T10:00:00.000Z';
  const when = formatWhen(settledAt, 'en-GB');

  it('says when a pending change happens', () => {
    expect(describeChangeStatus(change(), 'en-GB')).toBe(
      `Happens on ${formatWhen('2026-11-26T09:30:00.000Z', 'en-GB')} unless it is cancelled`,
    );
  });

  it('says how and when a settled change was settled', () => {
    expect(describeChangeStatus(change({ status: 'cancelled', settledAt }), 'en-GB')).toBe(
      `Cancelled on ${when}`,
    );
    expect(describeChangeStatus(change({ status: 'applied', settledAt }), 'en-GB')).toBe(`Done on ${when}`);
  });

  it("gives a failed change's reason as the catalogue says it, or its code when it is none", () => {
    expect(
      describeChangeStatus(change({ status: 'failed', settledAt, outcome: 'method_taken' }), 'en-GB'),
    ).toBe(
      `Not done on ${when}: That phone number, e-mail address or wallet is already a sign-in method of another Dial account.`,
    );
    expect(describeChangeStatus(change({ status: 'failed', settledAt, outcome: 'gone' }), 'en-GB')).toBe(
      `Not done on ${when}: gone`,
    );
  });
});

describe('pendingNotAskedHere', () => {
  it('keeps the pending changes another session asked for', () => {
    const others = change({ id: 'a' });
    const mine = change({ id: 'b', requestedHere: true });
    const cancelled = change({ id: 'c', status: 'cancelled' });
    expect(pendingNotAskedHere([others, mine, cancelled]).map((each) => each.id)).toEqual(['a']);
  });
});

describe('describeSecured', () => {
  it('says what was done, counted', () => {
    expect(
      describeSecured({ endedSessions: 2, removedMethods: 1, cancelledChanges: 1, forgottenBrowsers: 1 }),
    ).toBe(
      'Your account is secure: 2 other sessions ended, 1 sign-in method not confirmed by your wallet removed, 1 pending change cancelled and 1 other browser forgotten.',
    );
    expect(
      describeSecured({ endedSessions: 1, removedMethods: 0, cancelledChanges: 3, forgottenBrowsers: 0 }),
    ).toBe('Your account is secure: 1 other session ended and 3 pending changes cancelled.');
  });

  it('says when there was nothing to do', () => {
    expect(
      describeSecured({ endedSessions: 0, removedMethods: 0, cancelledChanges: 0, forgottenBrowsers: 0 }),
    ).toBe(
      'Your account is secure: there was no other session, unconfirmed method, pending change or other browser.',
    );
  });
});
