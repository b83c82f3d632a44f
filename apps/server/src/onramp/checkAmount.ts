import {
  DialError,
  isNativeOnrampAsset,
  normalizeOnrampAmount,
  type OnrampAsset,
  USDC_DECIMALS,
} from '@dial/core';

/** The largest sandbox purchase: what the local faucet can spare many times over. */
export const SANDBOX_MAX_AMOUNT = { USDC: 10_000, native: 10 } as const;

/**
 * Normalises a purchase amount and checks it: a positive decimal, with no more decimals than the asset has
 * (6 for USDC, 18 for native currencies; 8 for BTC, 9 for SOL), and in the sandbox at most
 * {@link SANDBOX_MAX_AMOUNT}.
 *
 * @throws {DialError} `invalid_data`.
 */
export function checkAmount(amount: string, asset: OnrampAsset, sandbox: boolean): string {
  const normalized = normalizeOnrampAmount(amount);
  const decimals = normalized.split('.')[1]?.length ?? 0;
  const allowed = asset === 'USDC' ? USDC_DECIMALS : asset === 'BTC' ? 8 : asset === 'SOL' ? 9 : 18;
  if (decimals > allowed) {
    throw new DialError('invalid_data', {
      message: `${asset} has at most ${allowed} decimals. Round the amount and try again.`,
    });
  }
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
