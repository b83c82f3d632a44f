import { describe, expect, it } from 'vitest';
import { AMOUNT_PRESETS, checkAmountInput } from './amountPresets';

describe('checkAmountInput', () => {
  it('accepts positive decimals, a leading dot included', () => {
    expect(checkAmountInput('25', 'USDC')).toBeNull();
    expect(checkAmountInput('.5', 'ETH')).toBeNull();
    expect(checkAmountInput(' 0.000001 ', 'USDC')).toBeNull();
  });

  it('explains what is wrong', () => {
    expect(checkAmountInput('', 'USDC')).toBe('Enter an amount.');
    expect(checkAmountInput('1,5', 'USDC')).toMatch(/as a number/);
    expect(checkAmountInput('0', 'USDC')).toMatch(/above zero/);
    expect(checkAmountInput('1.1234567', 'USDC')).toBe('USDC has at most 6 decimals.');
  });

  it('offers valid presets for every asset', () => {
    for (const [asset, presets] of Object.entries(AMOUNT_PRESETS)) {
      for (const preset of presets) expect(checkAmountInput(preset, asset as 'USDC')).toBeNull();
    }
  });
});
