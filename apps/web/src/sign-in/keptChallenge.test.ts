import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../connect/testing/announceWallet';
import { keepChallenge, readKeptChallenge } from './keptChallenge';
import { challengeFor } from './useSignInFlow';

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const started = {
  ok: true as const,
  channel: 'sms' as const,
  to: '+447400123456',
  resendAfterSeconds: 30,
  expiresInSeconds: 600,
};

/** A kept value with these fields of `started` and of the challenge changed. */
function kept(startedFields: object, challengeFields: object = {}): string {
  const challenge = { ...challengeFor(started, '+44 7400 123456', NOW), ...challengeFields };
  return JSON.stringify({
    challenge: { ...challenge, started: { ...started, ...startedFields } },
    showing: true,
  });
}

describe('the kept sign-in code step', () => {
  it('comes back after a reload as it was kept, until its code expires', () => {
    const storage = memoryStorage();
    const challenge = challengeFor(started, '+44 7400 123456', NOW);
    keepChallenge({ challenge, showing: true }, storage);
    expect(readKeptChallenge(NOW + 12_000, storage)).toEqual({
      challenge: { started, display: '+44 7400 123456', resendAt: NOW + 30_000, expiresAt: NOW + 600_000 },
      showing: true,
    });
  });

  it('keeps where the code went and the waits, never the code', () => {
    const storage = memoryStorage();
    keepChallenge({ challenge: challengeFor(started, '+44 7400 123456', NOW), showing: true }, storage);
    expect(JSON.parse(storage.getItem('dial.signInCode') ?? '')).toEqual({
      challenge: { started, display: '+44 7400 123456', resendAt: NOW + 30_000, expiresAt: NOW + 600_000 },
      showing: true,
    });
  });

  it('says whether the code screen or the form (after “Back”) was showing', () => {
    const storage = memoryStorage();
    keepChallenge({ challenge: challengeFor(started, '+44 7400 123456', NOW), showing: false }, storage);
    expect(readKeptChallenge(NOW, storage)?.showing).toBe(false);
  });

  it('is gone once the code has expired', () => {
    const storage = memoryStorage();
    keepChallenge({ challenge: challengeFor(started, '+44 7400 123456', NOW), showing: true }, storage);
    expect(readKeptChallenge(NOW + 599_000, storage)).not.toBeNull();
    expect(readKeptChallenge(NOW + 600_000, storage)).toBeNull();
  });

  it('is gone once forgotten (signed in)', () => {
    const storage = memoryStorage();
    keepChallenge({ challenge: challengeFor(started, '+44 7400 123456', NOW), showing: true }, storage);
    keepChallenge(null, storage);
    expect(readKeptChallenge(NOW, storage)).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '"x"'],
    ['without a challenge', '{}'],
    ['an unknown channel', kept({ channel: 'fax' })],
    ['a missing expiry', kept({}, { expiresAt: undefined })],
    ['a number as the address', kept({ to: 1 })],
    ['a number as the display', kept({}, { display: 1 })],
  ])('ignores a stored value that is %s', (_name, value) => {
    const storage = memoryStorage();
    storage.setItem('dial.signInCode', value);
    expect(readKeptChallenge(NOW, storage)).toBeNull();
  });

  it('does nothing where storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      removeItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    expect(() =>
      keepChallenge({ challenge: challengeFor(started, '+44 7400 123456', NOW), showing: true }, blocked),
    ).not.toThrow();
    expect(readKeptChallenge(NOW, blocked)).toBeNull();
    expect(() => keepChallenge(null, blocked)).not.toThrow();
  });
});
