import { LOCAL_CHAIN_ID } from '@dial/core';
import type { Chain } from 'viem';
import type { Prices } from './pricesApi';

/** An amount of one asset the wallet holds, in its smallest units. */
export interface Holding {
  /** `ETH`, `POL`, `USDC`: as the prices name them. */
  symbol: string;
  value: bigint;
  decimals: number;
}

/**
 * Whether a chain's balances are worth something: not on a test network (Base Sepolia; their coins have no
 * price), except the local chain's test funds under the sandbox's made-up prices (development).
 */
export function countsTowardsTotal(chain: Pick<Chain, 'id' | 'testnet'>, source: Prices['source']): boolean {
  if (chain.id === LOCAL_CHAIN_ID) return source === 'sandbox';
  return chain.testnet !== true;
}

/** Price digits kept after the point; Coinbase gives at most a handful. */
const PRICE_DECIMALS = 18;

/**
 * The total value of `holdings` in the prices' currency, in hundredths (cents), rounded to the nearest; null
 * when an asset held (more than zero) has no price: a total that leaves out part of the money would be wrong.
 */
export function totalCents(
  holdings: readonly Holding[],
  prices: readonly { symbol: string; price: string }[],
): bigint | null {
  let sum = 0n;
  for (const holding of holdings) {
    if (holding.value === 0n) continue;
    const price = prices.find((quote) => quote.symbol === holding.symbol)?.price;
    const scaled = price === undefined ? null : scaleDecimal(price, PRICE_DECIMALS);
    if (scaled === null) return null;
    // value × price, in units of 10^-(decimals + PRICE_DECIMALS), then to cents (10^-2), rounded.
    const divisor = 10n ** BigInt(holding.decimals + PRICE_DECIMALS - 2);
    sum += (holding.value * scaled + divisor / 2n) / divisor;
  }
  return sum;
}

/** "$1,234.56" (the symbol alone, not "US$", whatever the locale). */
export function formatMoney(cents: bigint, currency: string, locale?: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
  }).format(Number(cents) / 100);
}

/** A decimal string as an integer of `decimals` places (`'1.5'`, 2 → 150n); null when it is no decimal. */
function scaleDecimal(text: string, decimals: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const fraction = (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction);
}
