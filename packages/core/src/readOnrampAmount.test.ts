import { describe, expect, it } from 'vitest';
import { ONRAMP_ASSETS } from './onrampOffers.js';
import { readOnrampAmount } from './readOnrampAmount.js';

describe('readOnrampAmount', () => {
  it('reads positive decimals, adding the zero before a leading point', () => {
    expect(readOnrampAmount('25', 'USDC')).toEqual({ ok: true, amount: '25' });
    expect(readOnrampAmount('.5', 'ETH')).toEqual({ ok: true, amount: '0.5' });
    expect(readOnrampAmount('0.000001', 'USDC')).toEqual({ ok: true, amount: '0.000001' });
    expect(readOnrampAmount('007', 'SOL')).toEqual({ ok: true, amount: '007' });
  });

  it.each(['', '-1', '1e3', '1.', '1,5', ' 1', '1 ', 'abc', '1.2.3', '.'])(
    'refuses %j as not decimal',
    (amount) => {
      expect(readOnrampAmount(amount, 'USDC')).toEqual({ ok: false, problem: 'not_decimal' });
    },
  );

  it.each(['0', '0.0', '.000', '00'])('refuses %j as not positive', (amount) => {
    expect(readOnrampAmount(amount, 'USDC')).toEqual({ ok: false, problem: 'not_positive' });
  });

  it.each([
    ['USDC', 6],
    ['ETH', 18],
    ['POL', 18],
    ['BTC', 8],
    ['SOL', 9],
  ] as const)('allows %s at most %i decimals', (asset, maxDecimals) => {
    const most = `0.${'0'.repeat(maxDecimals - 1)}1`;
    expect(readOnrampAmount(most, asset)).toEqual({ ok: true, amount: most });
    expect(readOnrampAmount(`${most}1`, asset)).toEqual({
      ok: false,
      problem: 'too_many_decimals',
      maxDecimals,
    });
  });

  it('knows the decimals of every asset', () => {
    for (const asset of ONRAMP_ASSETS)
      expect(readOnrampAmount('1', asset)).toEqual({ ok: true, amount: '1' });
  });

  it('reads any number of decimals when no asset is given', () => {
    expect(readOnrampAmount('.0000000000000000000001')).toEqual({
      ok: true,
      amount: '0.0000000000000000000001',
    });
  });
});
