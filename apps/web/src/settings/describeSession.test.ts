import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../api/types';
import { currentFirst, describeSignIn } from './describeSession';

function session(id: string, current: boolean): SessionInfo {
  return {
    id,
    device: 'Chrome on Linux',
    method: 'email',
    createdAt: '2026-11-24T09:30:00.000Z',
    lastSeenAt: '2026-11-24T09:30:00.000Z',
    current,
  };
}

describe('describeSignIn', () => {
  it('says how each session signed in', () => {
    expect(describeSignIn('phone')).toBe('Signed in with a phone number');
    expect(describeSignIn('email')).toBe('Signed in with an email address');
    expect(describeSignIn('wallet')).toBe('Signed in with a wallet');
  });

  it('says only "Signed in" for a session older than the method field', () => {
    expect(describeSignIn(null)).toBe('Signed in');
  });
});

describe('currentFirst', () => {
  it("puts this browser's session first and keeps the others' order", () => {
    const sorted = currentFirst([session('a', false), session('b', true), session('c', false)]);
    expect(sorted.map((each) => each.id)).toEqual(['b', 'a', 'c']);
  });
});
