import { describe, expect, it } from 'vitest';
import { describeIdentity } from './describeIdentity';

describe('describeIdentity', () => {
  it('masks a phone number to its last four digits', () => {
    expect(describeIdentity({ phone: '+447400123456', email: null })).toBe('*3456');
  });

  it('keeps the first character and the domain of an e-mail address', () => {
    expect(describeIdentity({ phone: null, email: 'ada.lovelace@example.com' })).toBe('a•••@example.com');
  });

  it('is null for an account with neither', () => {
    expect(describeIdentity({ phone: null, email: null })).toBeNull();
  });
});
