import { USDC_DECIMALS } from '@dial/core';
import { formatUnits } from 'viem';

/**
 * A native balance for people: "1 ETH", "0.25 POL", "1,234.5678 ETH". Rounded DOWN (never shows more than
 * is there): 4 decimals from 1 up, 6 below 1, and "< 0.000001 ETH" for dust.
 */
export function formatBalance(value: bigint, currency: { decimals: number; symbol: string }): string {
  if (value === 0n) return `0 ${currency.symbol}`;
  const [whole = '0', fraction = ''] = formatUnits(value, currency.decimals).split('.');
  const places = whole === '0' ? 6 : 4;
  const kept = fraction.slice(0, places).replace(/0+$/, '');
  if (whole === '0' && kept === '') return `< 0.${'0'.repeat(places - 1)}1 ${currency.symbol}`;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${kept ? `.${kept}` : ''} ${currency.symbol}`;
}

/** A USDC balance (6 decimals) for people, rounded down like {@link formatBalance}: "100 USDC". */
export function formatUsdc(value: bigint): string {
  return formatBalance(value, { decimals: USDC_DECIMALS, symbol: 'USDC' });
}
