import { describe, expect, it } from 'vitest';
import { passkeyChangeChallenge } from './passkeyChangeChallenge.js';

describe('passkeyChangeChallenge', () => {
  const fields = {
    action: 'remove-method',
    target: '0b5c7c2e-4a55-4b0e-9a59-0f0c6d1f0e11',
    challenge: 'c'.repeat(43),
    userId: 'u1',
    credentialId: 'AbC-_d',
  } as const;

  it('is the base64url of the lines naming the action, target, passkey (case kept), account and challenge', () => {
    const text = Buffer.from(passkeyChangeChallenge(fields), 'base64url').toString('utf8');
    expect(text.split('\n')).toEqual([
      'Dial account change',
      'This passkey assertion changes nothing on any chain and costs nothing.',
      'Action: remove-method',
      'Target: 0b5c7c2e-4a55-4b0e-9a59-0f0c6d1f0e11',
      'Passkey: AbC-_d',
      'Account: u1',
      `Challenge: ${'c'.repeat(43)}`,
    ]);
    expect(passkeyChangeChallenge(fields)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('differs for another action, target, account, challenge or passkey', () => {
    const base = passkeyChangeChallenge(fields);
    expect(passkeyChangeChallenge({ ...fields, action: 'forget-browser' })).not.toBe(base);
    expect(passkeyChangeChallenge({ ...fields, target: 'other' })).not.toBe(base);
    expect(passkeyChangeChallenge({ ...fields, userId: 'u2' })).not.toBe(base);
    expect(passkeyChangeChallenge({ ...fields, challenge: 'd'.repeat(43) })).not.toBe(base);
    expect(passkeyChangeChallenge({ ...fields, credentialId: 'abc-_d' })).not.toBe(base);
  });
});
