import { describe, expect, it } from 'vitest';
import type { SignInMethod } from '../api/types';
import { additionBlockedReason, methodCount, removalBlockedReason } from './methodLimits';

function method(kind: SignInMethod['kind'], value: string): SignInMethod {
  return {
    id: crypto.randomUUID(),
    kind,
    value,
    findable: kind === 'phone' ? true : null,
    trusted: true,
    createdAt: '2026-11-24T09:30:00.000Z',
  };
}

describe('removalBlockedReason', () => {
  it('refuses to remove the only method, saying to add another first', () => {
    expect(removalBlockedReason([method('email', 'ada@example.com')])).toBe(
      'This is your only way to sign in, so it cannot be removed. Add another one first.',
    );
  });

  it('allows removing any of two or more', () => {
    expect(
      removalBlockedReason([method('email', 'ada@example.com'), method('phone', '+447400123456')]),
    ).toBeNull();
  });
});

describe('additionBlockedReason', () => {
  it('allows adding below the cap', () => {
    expect(additionBlockedReason(4, 5)).toBeNull();
  });

  it('refuses at the cap, naming it', () => {
    expect(additionBlockedReason(5, 5)).toBe(
      'You have 5 sign-in methods, the most this Dial allows. Remove one to add another.',
    );
  });
});

describe('methodCount', () => {
  it('says how many of how many', () => {
    expect(methodCount(3, 5)).toBe('3 of 5');
  });
});
