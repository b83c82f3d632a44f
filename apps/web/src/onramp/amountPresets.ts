import { readOnrampAmount } from '@dial/core';
import type { OnrampAssetCode } from '../api/types';

/** Amounts offered as one-tap presets, per asset. */
export const AMOUNT_PRESETS: Readonly<Record<OnrampAssetCode, readonly string[]>> = {
  USDC: ['10', '25', '50', '100'],
  ETH: ['0.01', '0.05', '0.1'],
  POL: ['5', '10', '25'],
  BTC: ['0.001', '0.005', '0.01'],
  SOL: ['0.1', '0.5', '1'],
};

/**
 * Checks an amount as typed (`readOnrampAmount`); returns a message for the field, or null when it is fine.
 * The server checks again (and knows the sandbox's caps).
 */
export function checkAmountInput(amount: string, asset: OnrampAssetCode): string | null {
  const trimmed = amount.trim();
  if (trimmed === '') return 'Enter an amount.';
  const reading = readOnrampAmount(trimmed, asset);
  if (reading.ok) return null;
  if (reading.problem === 'not_decimal') return 'Enter the amount as a number, like 25 or 0.5.';
  if (reading.problem === 'not_positive') return 'Enter an amount above zero.';
  return `${asset} has at most ${reading.maxDecimals} decimals.`;
}
