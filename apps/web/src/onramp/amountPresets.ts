import type { OnrampAssetCode } from '../api/types';

/** Amounts offered as one-tap presets, per asset. */
export const AMOUNT_PRESETS: Readonly<Record<OnrampAssetCode, readonly string[]>> = {
  USDC: ['10', '25', '50', '100'],
  ETH: ['0.01', '0.05', '0.1'],
  POL: ['5', '10', '25'],
  BTC: ['0.001', '0.005', '0.01'],
  SOL: ['0.1', '0.5', '1'],
};

/** Decimals each asset has: more in an amount is refused. */
const DECIMALS: Readonly<Record<OnrampAssetCode, number>> = { USDC: 6, ETH: 18, POL: 18, BTC: 8, SOL: 9 };

/**
 * Checks an amount as typed; returns a message for the field, or null when it is fine. The server checks
 * again (and knows the sandbox's caps).
 */
export function checkAmountInput(amount: string, asset: OnrampAssetCode): string | null {
  const trimmed = amount.trim();
  if (trimmed === '') return 'Enter an amount.';
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(trimmed)) return 'Enter the amount as a number, like 25 or 0.5.';
  if (!/[1-9]/.test(trimmed)) return 'Enter an amount above zero.';
  if ((trimmed.split('.')[1]?.length ?? 0) > DECIMALS[asset]) {
    return `${asset} has at most ${DECIMALS[asset]} decimals.`;
  }
  return null;
}
