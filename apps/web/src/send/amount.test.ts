import { describe, expect, it } from 'vitest';
import { amountInputText, hasEnoughFunds, maxSendable, parseAmount } from './amount';

const ETH = 10n ** 18n;

describe('parseAmount', () => {
  it('reads plain decimals into base units', () => {
    expect(parseAmount('5', 6, 'USDC')).toEqual({ ok: true, value: 5_000_000n });
    expect(parseAmount(' 0.5 ', 18, 'ETH')).toEqual({ ok: true, value: ETH / 2n });
    expect(parseAmount('.25', 6, 'USDC')).toEqual({ ok: true, value: 250_000n });
    expect(parseAmount('12.', 6, 'USDC')).toEqual({ ok: true, value: 12_000_000n });
    expect(parseAmount('0.000001', 6, 'USDC')).toEqual({ ok: true, value: 1n });
  });

  it('refuses more decimals than the asset has', () => {
    expect(parseAmount('1.1234567', 6, 'USDC')).toEqual({
      ok: false,
      message: 'USDC has at most 6 decimal places.',
    });
    expect(parseAmount('0.0000000000000000001', 18, 'ETH')).toMatchObject({ ok: false });
  });

  it('refuses empty, zero, signs, separators and letters with a message', () => {
    expect(parseAmount('', 6, 'USDC')).toEqual({ ok: false, message: 'Enter an amount.' });
    expect(parseAmount('0', 6, 'USDC')).toEqual({ ok: false, message: 'Enter an amount more than 0.' });
    expect(parseAmount('0.000', 6, 'USDC')).toMatchObject({ ok: false });
    for (const text of ['-1', '+1', '1,5', '1,000', '1e3', 'abc', '1.2.3', '.', '0x10']) {
      const result = parseAmount(text, 6, 'USDC');
      expect(result, text).toEqual({
        ok: false,
        message: 'Enter the amount in digits, with a point for decimals, like 12.5.',
      });
    }
  });

  it('refuses an amount above 2^256 − 1', () => {
    expect(parseAmount('1'.padEnd(80, '0'), 0, 'X')).toEqual({
      ok: false,
      message: 'That amount is too large.',
    });
  });
});

describe('amountInputText', () => {
  it('writes an amount back exactly, without grouping', () => {
    expect(amountInputText(999_979_000_000_000_000n, 18)).toBe('0.999979');
    expect(amountInputText(1_234_000_000n, 6)).toBe('1234');
  });
});

describe('maxSendable', () => {
  const funds = { native: ETH, usdc: 100_000_000n };

  it('native: the balance less the fee', () => {
    expect(maxSendable('native', funds, 21_000n * 10n ** 9n)).toBe(ETH - 21_000n * 10n ** 9n);
  });

  it('native: never below 0 when the fee is more than the balance', () => {
    expect(maxSendable('native', { native: 5n, usdc: 0n }, 6n)).toBe(0n);
    expect(maxSendable('native', { native: 5n, usdc: 0n }, 5n)).toBe(0n);
  });

  it('USDC: the whole token balance (the fee is paid in the native currency)', () => {
    expect(maxSendable('usdc', funds, 10n ** 15n)).toBe(100_000_000n);
    expect(maxSendable('usdc', { native: 0n, usdc: undefined }, 1n)).toBe(0n);
  });
});

describe('hasEnoughFunds', () => {
  it('native: the balance must cover amount + fee', () => {
    expect(hasEnoughFunds('native', ETH - 10n, 10n, { native: ETH, usdc: 0n })).toBe(true);
    expect(hasEnoughFunds('native', ETH - 10n, 11n, { native: ETH, usdc: 0n })).toBe(false);
    expect(hasEnoughFunds('native', 2n * ETH, 0n, { native: ETH, usdc: 0n })).toBe(false);
  });

  it('USDC: the token balance covers the amount AND the native balance the fee', () => {
    expect(hasEnoughFunds('usdc', 5_000_000n, 100n, { native: 100n, usdc: 5_000_000n })).toBe(true);
    expect(hasEnoughFunds('usdc', 5_000_001n, 100n, { native: 100n, usdc: 5_000_000n })).toBe(false);
    // Plenty of USDC, but no ETH for the fee.
    expect(hasEnoughFunds('usdc', 1n, 100n, { native: 99n, usdc: 5_000_000n })).toBe(false);
    expect(hasEnoughFunds('usdc', 1n, 0n, { native: 0n, usdc: undefined })).toBe(false);
  });
});
