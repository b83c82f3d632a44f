import { describe, expect, it } from 'vitest';
import { formatExactAmount } from './formatExactAmount';

describe('formatExactAmount', () => {
  it('shows every decimal and groups the whole part', () => {
    expect(formatExactAmount(5_000_000n, { decimals: 6, symbol: 'USDC' })).toBe('5 USDC');
    expect(formatExactAmount(1_234_000_001n, { decimals: 6, symbol: 'USDC' })).toBe('1,234.000001 USDC');
    expect(formatExactAmount(1n, { decimals: 18, symbol: 'ETH' })).toBe('0.000000000000000001 ETH');
    expect(formatExactAmount(0n, { decimals: 18, symbol: 'POL' })).toBe('0 POL');
  });
});
