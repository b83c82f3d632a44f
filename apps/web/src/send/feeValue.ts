import type { Chain } from 'viem';
import type { Prices } from '../prices/pricesApi';
import { countsTowardsTotal, formatMoney, totalCents } from '../prices/totalValue';

/**
 * What a fee is worth in the prices' currency, for the review ("≈ $0.05", "< $0.01"); null where the app
 * shows no money value (a test network, no price for the native currency): never a guessed number.
 */
export function feeValueText(
  fee: bigint,
  chain: Pick<Chain, 'id' | 'testnet' | 'nativeCurrency'>,
  prices: Prices | null,
): string | null {
  if (prices === null || !countsTowardsTotal(chain, prices.source)) return null;
  const { symbol, decimals } = chain.nativeCurrency;
  const cents = totalCents([{ symbol, value: fee, decimals }], prices.prices);
  if (cents === null || fee === 0n) return null;
  if (cents === 0n) return `< ${formatMoney(1n, prices.currency)}`;
  return `≈ ${formatMoney(cents, prices.currency)}`;
}
