import { formatBalance } from '../chain/formatBalance';

/**
 * A fee maximum for people, in the places {@link formatBalance} shows (6 decimals below 1, 4 from 1 up), but
 * rounded UP: "up to 0.000094 ETH" must not be below what the transfer may really cost. Dust shows as the
 * smallest step ("0.000001 ETH"), which is still an upper bound.
 */
export function formatFeeMax(value: bigint, currency: { decimals: number; symbol: string }): string {
  if (value <= 0n) return formatBalance(0n, currency);
  const one = 10n ** BigInt(currency.decimals);
  const places = value < one ? 6 : 4;
  const step = currency.decimals > places ? 10n ** BigInt(currency.decimals - places) : 1n;
  // Rounded up to a whole step, formatBalance's rounding down keeps it exactly (also when it reaches 1).
  const roundedUp = ((value + step - 1n) / step) * step;
  return formatBalance(roundedUp, currency);
}
