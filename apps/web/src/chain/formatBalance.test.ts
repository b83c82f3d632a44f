import { describe, expect, it } from 'vitest';
import { formatBalance, formatUsdc } from './formatBalance';

const eth = { decimals: 18, symbol: 'ETH' };
const ether = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole! + fraction.padEnd(18, '0'));
};

describe('formatBalance', () => {
  it('shows whole amounts without decimals', () => {
    expect(formatBalance(0n, { decimals: 18, symbol: 'POL' })).toBe('0 POL');
    expect(formatBalance(ether('1'), eth)).toBe('1 ETH');
  });

  it('keeps four decimals from 1 up, rounding down', () => {
    expect(formatBalance(ether('1.23456789'), eth)).toBe('1.2345 ETH');
    expect(formatBalance(ether('2.99999999'), eth)).toBe('2.9999 ETH');
  });

  it('keeps six decimals below 1 and drops trailing zeros', () => {
    expect(formatBalance(ether('0.25'), eth)).toBe('0.25 ETH');
    expect(formatBalance(ether('0.0001234567'), eth)).toBe('0.000123 ETH');
  });

  it('says "less than" for dust instead of showing 0', () => {
    expect(formatBalance(1n, eth)).toBe('< 0.000001 ETH');
  });

  it('groups thousands', () => {
    expect(formatBalance(ether('1234567.5'), eth)).toBe('1,234,567.5 ETH');
  });

  it('follows the currency decimals', () => {
    expect(formatBalance(1_500_000n, { decimals: 6, symbol: 'USDC' })).toBe('1.5 USDC');
  });
});

describe('formatUsdc', () => {
  it('reads 6-decimal units: 100_000_000 is 100 USDC', () => {
    expect(formatUsdc(0n)).toBe('0 USDC');
    expect(formatUsdc(100_000_000n)).toBe('100 USDC');
  });

  it('keeps the smallest unit below 1 and rounds down to four decimals from 1 up', () => {
    expect(formatUsdc(1n)).toBe('0.000001 USDC');
    expect(formatUsdc(250_000n)).toBe('0.25 USDC');
    expect(formatUsdc(1_234_567_891n)).toBe('1,234.5678 USDC');
  });
});
