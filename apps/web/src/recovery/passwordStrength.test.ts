import { describe, expect, it } from 'vitest';
import { passwordUserInputs } from './passwordPolicy';
import { findPasswordWeakness } from './passwordStrength';

const ALICE = passwordUserInputs({ phone: '+447911123456', email: 'alice.smith@example.com' });

describe('findPasswordWeakness', () => {
  it('refuses password123, saying why and what would be better', () => {
    expect(findPasswordWeakness('password123', ALICE)).toBe(
      'Too easy to guess. This is a commonly used password. Add more words that are less common.',
    );
  });

  it.each([
    ['a passphrase of unrelated words', 'plum orchard lantern 42'],
    ['another', 'kettle mosaic upward 9'],
    ['four common words that are no phrase', 'correct horse battery staple'],
  ])('takes %s (%s)', (_label, password) => {
    expect(findPasswordWeakness(password, ALICE)).toBeNull();
  });

  it.each([
    ['a keyboard row', 'qwertyuiop12', 'This is similar to a commonly used password.'],
    ['a name and a year', 'jennifer1990', 'This is similar to a commonly used password.'],
    ['a repeated character', 'aaaaaaaaaaaa', 'Repeated characters like "aaa" are easy to guess.'],
    [
      'their own e-mail address',
      'alice.smith@example.com1',
      'It contains your phone number or e-mail address, or the name of this app.',
    ],
  ])('refuses %s with its reason', (_label, password, reason) => {
    const weakness = findPasswordWeakness(password, ALICE);
    expect(weakness).toMatch(/^Too easy to guess\. /);
    expect(weakness).toContain(reason);
  });

  it('knows what this person and app are: their phone number is weak for them, not for another', () => {
    expect(findPasswordWeakness('dial 447911123456', ALICE)).toMatch(/^Too easy to guess\. /);
    expect(findPasswordWeakness('dial 447911123456', [])).toBeNull();
  });

  it('says what would be better when there is no warning to give (summer2024!: a word and a year)', () => {
    expect(findPasswordWeakness('summer2024!', ALICE)).toBe(
      'Too easy to guess. Add more words that are less common.',
    );
  });
});
