import { describe, expect, it } from 'vitest';
import { countsTowardsTotal, formatMoney, totalCents } from './totalValue';

const PRICES = [
  { symbol: 'ETH', price: '3012.45' },
  { symbol: 'POL', price: '0.2311' },
  { symbol: 'USDC', price: '0.9998' },
];
const ETH = 10n ** 18n;

describe('totalCents', () => {
  it('adds the native balance and USDC at their prices, in cents, rounded', () => {
    expect(
      totalCents(
        [
          { symbol: 'ETH', value: ETH / 2n, decimals: 18 },
          { symbol: 'USDC', value: 25_000_000n, decimals: 6 },
        ],
        PRICES,
      ),
    ).toBe(150_623n + 2_500n);
    expect(totalCents([{ symbol: 'POL', value: 3n * ETH, decimals: 18 }], PRICES)).toBe(69n);
    expect(totalCents([{ symbol: 'USDC', value: 5_000n, decimals: 6 }], PRICES)).toBe(0n);
  });

  it('is zero for an empty wallet, whatever prices are missing', () => {
    expect(totalCents([{ symbol: 'ETH', value: 0n, decimals: 18 }], [])).toBe(0n);
  });

  it('is null when an asset held has no price: a partial total would be wrong', () => {
    const held = [
      { symbol: 'ETH', value: ETH, decimals: 18 },
      { symbol: 'USDC', value: 1_000_000n, decimals: 6 },
    ];
    expect(
      totalCents(
        held,
        PRICES.filter((quote) => quote.symbol !== 'ETH'),
      ),
    ).toBeNull();
    expect(totalCents(held, [...PRICES.slice(1), { symbol: 'ETH', price: 'NaN' }])).toBeNull();
  });
});

describe('countsTowardsTotal', () => {
  it('counts networks of real value, never a test network, the local chain only with the sandbox prices', () => {
    expect(countsTowardsTotal({ id: 8453, testnet: undefined }, 'coinbase')).toBe(true);
    expect(countsTowardsTotal({ id: 84532, testnet: true }, 'coinbase')).toBe(false);
    expect(countsTowardsTotal({ id: 84532, testnet: true }, 'sandbox')).toBe(false);
    expect(countsTowardsTotal({ id: 31337, testnet: true }, 'sandbox')).toBe(true);
    expect(countsTowardsTotal({ id: 31337, testnet: true }, 'coinbase')).toBe(false);
  });
});

describe('formatMoney', () => {
  it('writes US dollars with the $ sign in any locale', () => {
    expect(formatMoney(123_456n, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(123_456n, 'USD', 'en-GB')).toBe('$1,234.56');
    expect(formatMoney(0n, 'USD', 'en-GB')).toBe('$0.00');
  });
});
