import type { PriceCurrency, PricedAsset } from '@dial/api';

/** Where the prices of the assets Dial shows come from (`PRICE_SOURCE`). */
export interface PriceSource {
  readonly name: 'sandbox' | 'coinbase';
  /**
   * One unit of `asset` in `currency`, a positive decimal string such as `'3012.45'`. Rejects when the source
   * cannot say (unreachable, an error, an answer it cannot read): the caller then shows no price, never a guess.
   */
  quote(asset: PricedAsset, currency: PriceCurrency): Promise<string>;
}

/** A price as sources give it: digits, an optional fraction, not zero. */
const PRICE_PATTERN = /^\d{1,15}(\.\d{1,18})?$/;

/** Whether `value` is a price Dial shows: a positive decimal string of sane length. */
export function isPrice(value: unknown): value is string {
  return typeof value === 'string' && PRICE_PATTERN.test(value) && /[1-9]/.test(value);
}
