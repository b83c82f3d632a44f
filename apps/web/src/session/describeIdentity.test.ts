import { describe, expect, it } from 'vitest';
import { describeIdentity } from './describeIdentity';

const WALLET = { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', kind: 'external' } as const;

describe('describeIdentity', () => {
  it('gives the own phone number in full, grouped internationally', () => {
    expect(describeIdentity({ phone: '+447911123456', email: null, wallet: null })).toBe('+44 7911 123456');
    expect(describeIdentity({ phone: '+4915123456789', email: 'a@example.com', wallet: null })).toBe(
      '+49 1512 3456789',
    );
    expect(describeIdentity({ phone: '+12015550123', email: null, wallet: null })).toBe('+1 201 555 0123');
  });

  it('gives the e-mail address in full when there is no phone number', () => {
    expect(describeIdentity({ phone: null, email: 'ada.lovelace@example.com', wallet: WALLET })).toBe(
      'ada.lovelace@example.com',
    );
  });

  it("gives the wallet's address for an account signed in with a wallet", () => {
    expect(describeIdentity({ phone: null, email: null, wallet: WALLET })).toBe(WALLET.address);
  });

  it('is null for an account with none of them', () => {
    expect(describeIdentity({ phone: null, email: null, wallet: null })).toBeNull();
  });
});
