import { DialError, isNativeOnrampAsset, type OnrampAsset, readOnrampAmount } from '@dial/core';

/** The largest sandbox purchase: what the local faucet can spare many times over. */
export const SANDBOX_MAX_AMOUNT = { USDC: 10_000, native: 10 } as const;

/**
 * Normalises a purchase amount and checks it: a positive decimal, with no more decimals than the asset has
 * (`readOnrampAmount`: 6 for USDC, 18 for native currencies; 8 for BTC, 9 for SOL), and in the sandbox at
 * most {@link SANDBOX_MAX_AMOUNT}.
 *
 * @throws {DialError} `invalid_data`.
 */
export function checkAmount(amount: string, asset: OnrampAsset, sandbox: boolean): string {
  const reading = readOnrampAmount(amount, asset);
  if (!reading.ok && reading.problem === 'too_many_decimals') {
    throw new DialError('invalid_data', {
      message: `${asset} has at most ${reading.maxDecimals} decimals. Round the amount and try again.`,
    });
  }
  if (!reading.ok) {
    throw new DialError('invalid_data', {
      details: `not a positive decimal amount: ${JSON.stringify(amount)}`,
    });
  }
  const normalized = reading.amount;
  if (sandbox) {
    const max = isNativeOnrampAsset(asset) ? SANDBOX_MAX_AMOUNT.native : SANDBOX_MAX_AMOUNT.USDC;
    if (Number(normalized) > max) {
      throw new DialError('invalid_data', {
        message: `The sandbox credits at most ${max} ${asset} at a time. Enter a smaller amount.`,
      });
    }
  }
  return normalized;
}
