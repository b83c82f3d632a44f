import { describe, expect, it } from 'vitest';
import { walletError } from './walletError';

const fromWallet = (code: number) => Object.assign(new Error('from the wallet'), { code });

describe('walletError', () => {
  it('reads the EIP-1193 codes: refused (4001, 4100), already asking (-32002), disconnected (4900, 4901)', () => {
    expect(walletError(fromWallet(4001)).code).toBe('user_rejected');
    expect(walletError(fromWallet(4100)).code).toBe('user_rejected');
    const pending = walletError(fromWallet(-32002));
    expect([pending.code, pending.message]).toEqual([
      'user_rejected',
      'Your wallet is already asking you something. Open it, answer, then try again.',
    ]);
    expect(walletError(fromWallet(4900)).code).toBe('chain_unavailable');
    expect(walletError(fromWallet(4901)).code).toBe('chain_unavailable');
  });

  it('keeps anything else as internal_error, with the wallet’s error as its cause', () => {
    const odd = new Error('odd');
    const error = walletError(odd);
    expect([error.code, error.cause]).toEqual(['internal_error', odd]);
  });
});
