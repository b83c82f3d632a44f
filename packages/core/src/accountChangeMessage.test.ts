import { describe, expect, it } from 'vitest';
import { accountChangeMessage, accountChangeTarget } from './accountChangeMessage.js';

describe('accountChangeMessage', () => {
  const fields = {
    action: 'remove-method',
    target: '0b5c7c2e-4a55-4b0e-9a59-0f0c6d1f0e11',
    challenge: 'c'.repeat(43),
    userId: 'u1',
    address: '0xAbCdEf0000000000000000000000000000000001',
  } as const;

  it('names the action, its target, the account, the key in lower case and the challenge, a line each', () => {
    expect(accountChangeMessage(fields).split('\n')).toEqual([
      'Dial account change',
      'This signature changes nothing on any chain and costs nothing.',
      'Action: remove-method',
      'Target: 0b5c7c2e-4a55-4b0e-9a59-0f0c6d1f0e11',
      'Address: 0xabcdef0000000000000000000000000000000001',
      'Account: u1',
      `Challenge: ${'c'.repeat(43)}`,
    ]);
  });

  it('differs for another action, target, account or challenge', () => {
    const base = accountChangeMessage(fields);
    expect(accountChangeMessage({ ...fields, action: 'forget-browser' })).not.toBe(base);
    expect(accountChangeMessage({ ...fields, target: 'other' })).not.toBe(base);
    expect(accountChangeMessage({ ...fields, userId: 'u2' })).not.toBe(base);
    expect(accountChangeMessage({ ...fields, challenge: 'd'.repeat(43) })).not.toBe(base);
  });
});

describe('accountChangeTarget', () => {
  it('writes each change as both sides do', () => {
    expect(accountChangeTarget({ action: 'link-method', kind: 'email', value: 'ann@example.com' })).toBe(
      'email:ann@example.com',
    );
    expect(
      accountChangeTarget({
        action: 'link-method',
        kind: 'wallet',
        value: '0xAbCdEf0000000000000000000000000000000001',
      }),
    ).toBe('wallet:0xabcdef0000000000000000000000000000000001');
    expect(accountChangeTarget({ action: 'set-findable', id: 'm1', findable: false })).toBe('m1:off');
    expect(accountChangeTarget({ action: 'set-findable', id: 'm1', findable: true })).toBe('m1:on');
    expect(accountChangeTarget({ action: 'end-sessions', id: 'all-others' })).toBe('all-others');
    expect(accountChangeTarget({ action: 'forget-browser', id: 'b1' })).toBe('b1');
    expect(accountChangeTarget({ action: 'secure-account' })).toBe('all');
    expect(accountChangeTarget({ action: 'export-key', address: '0xABC' })).toBe('0xabc');
  });
});
