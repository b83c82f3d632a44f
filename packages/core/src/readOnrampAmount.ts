import type { OnrampAsset } from './onrampOffers.js';
import { USDC_DECIMALS } from './usdc.js';

/**
 * The decimals each asset has (6 for USDC, 18 for ETH and POL, 8 for BTC, 9 for SOL): an amount with more
 * cannot be bought, so {@link readOnrampAmount} refuses it. Kept here, not with the offers, so that the web
 * app's amount field does not bring the offer tables into its chunk.
 */
export const ONRAMP_ASSET_DECIMALS: Readonly<Record<OnrampAsset, number>> = Object.freeze({
  USDC: USDC_DECIMALS,
  ETH: 18,
  POL: 18,
  BTC: 8,
  SOL: 9,
});

/** What {@link readOnrampAmount} made of an amount. */
export type OnrampAmountReading =
  | {
      ok: true;
      /** The amount with a digit before the point, as the provider reads it: `.5` becomes `0.5`. */
      amount: string;
    }
  /** Not digits with at most one point (and a digit after it). */
  | { ok: false; problem: 'not_decimal' }
  /** Zero. */
  | { ok: false; problem: 'not_positive' }
  | {
      ok: false;
      problem: 'too_many_decimals';
      /** The decimals the asset has ({@link ONRAMP_ASSET_DECIMALS}). */
      maxDecimals: number;
    };

/** Digits with at most one point, and a digit after it: `25`, `0.5`, `.5`; not `1.`, `1e3`, `-1`, ` 1`. */
const DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;

/**
 * Reads an amount to buy through the on-ramp: a positive decimal number, with no more decimals than the
 * asset has ({@link ONRAMP_ASSET_DECIMALS}), written with a digit before the point. The one rule the
 * server (which refuses the purchase) and the web app (which explains the field) share; each says what is
 * wrong in its own words.
 *
 * @param amount - The amount as typed, already trimmed, e.g. `'25'` or `'.5'`.
 * @param asset - The asset bought; left out, any number of decimals is read.
 * @returns `ok: true` with the amount normalised, or `ok: false` with the problem.
 *
 * @example
 * ```ts
 * readOnrampAmount('.5', 'ETH'); // { ok: true, amount: '0.5' }
 * readOnrampAmount('0', 'ETH'); // { ok: false, problem: 'not_positive' }
 * readOnrampAmount('1.1234567', 'USDC'); // { ok: false, problem: 'too_many_decimals', maxDecimals: 6 }
 * ```
 */
export function readOnrampAmount(amount: string, asset?: OnrampAsset): OnrampAmountReading {
  if (!DECIMAL.test(amount)) return { ok: false, problem: 'not_decimal' };
  if (!/[1-9]/.test(amount)) return { ok: false, problem: 'not_positive' };
  if (asset !== undefined) {
    const maxDecimals = ONRAMP_ASSET_DECIMALS[asset];
    if ((amount.split('.')[1]?.length ?? 0) > maxDecimals) {
      return { ok: false, problem: 'too_many_decimals', maxDecimals };
    }
  }
  return { ok: true, amount: amount.startsWith('.') ? `0${amount}` : amount };
}
