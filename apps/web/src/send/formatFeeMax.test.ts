import { describe, expect, it } from 'vitest';
import { formatFeeMax } from './formatFeeMax';

const eth = { decimals: 18, symbol: 'ETH' };
const ether = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole! + fraction.padEnd(18, '0'));
};

describe('formatFeeMax', () => {
  it('rounds a fee below 1 up at 6 decimals, never below the true maximum', () => {
    expect(formatFeeMax(ether('0.0000931'), eth)).toBe('0.000094 ETH');
    expect(formatFeeMax(ether('0.000093000000000001'), eth)).toBe('0.000094 ETH');
    expect(formatFeeMax(ether('0.123456789'), eth)).toBe('0.123457 ETH');
  });

  it('keeps a fee already at the shown precision as it is', () => {
    expect(formatFeeMax(ether('0.000093'), eth)).toBe('0.000093 ETH');
    expect(formatFeeMax(ether('0.5'), eth)).toBe('0.5 ETH');
    expect(formatFeeMax(ether('2'), eth)).toBe('2 ETH');
  });

  it('shows dust as the smallest step, an upper bound rather than "< 0.000001"', () => {
    expect(formatFeeMax(1n, eth)).toBe('0.000001 ETH');
    expect(formatFeeMax(ether('0.0000001'), eth)).toBe('0.000001 ETH');
  });

  it('rounds up across 1 and at 4 decimals from 1 up', () => {
    expect(formatFeeMax(ether('0.9999991'), eth)).toBe('1 ETH');
    expect(formatFeeMax(ether('1.00001'), eth)).toBe('1.0001 ETH');
    expect(formatFeeMax(ether('1234.56781'), eth)).toBe('1,234.5679 ETH');
  });

  it('shows 0 for no fee and works for a currency with few decimals', () => {
    expect(formatFeeMax(0n, eth)).toBe('0 ETH');
    expect(formatFeeMax(1234n, { decimals: 2, symbol: 'X' })).toBe('12.34 X');
  });
});
