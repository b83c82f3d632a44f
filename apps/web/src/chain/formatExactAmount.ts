import { formatUnits } from 'viem';

/**
 * An amount with every decimal it has (not rounded: this is what is sent), the whole part grouped:
 * "5 USDC", "1,234.000001 USDC", "0.000000000000000001 ETH".
 */
export function formatExactAmount(value: bigint, units: { decimals: number; symbol: string }): string {
  const [whole = '0', fraction] = formatUnits(value, units.decimals).split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''} ${units.symbol}`;
}
