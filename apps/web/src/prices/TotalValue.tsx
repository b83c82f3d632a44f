import type { Chain } from 'viem';
import type { BalanceState } from '../chain/useBalance';
import type { UsdcBalanceState } from '../chain/useUsdcBalance';
import { countsTowardsTotal, formatMoney, type Holding, totalCents } from './totalValue';
import { usePrices } from './usePrices';

interface TotalValueProps {
  chain: Chain;
  native: BalanceState;
  usdc: UsdcBalanceState;
}

/**
 * "≈ $1,234.56 total on Base": the shown network's native balance and USDC in US dollars. Part of the wallet
 * screen's chunk (loaded after sign-in): as a chunk of its own it cost 1.2 KB more, in the wrappers of the
 * chunks it split out, than its 0.5 KB of code. Shown only when every part is known: both balances read, and a price for each asset held.
 * Nothing on a test network, nor when prices are off or could not be read; never a guessed number.
 */
export function TotalValue({ chain, native, usdc }: TotalValueProps) {
  const prices = usePrices();
  if (prices === null || !countsTowardsTotal(chain, prices.source)) return null;
  if (native.status !== 'ready' || usdc.status === 'loading' || usdc.status === 'failed') return null;
  const holdings: Holding[] = [
    { symbol: chain.nativeCurrency.symbol, value: native.value, decimals: chain.nativeCurrency.decimals },
  ];
  if (usdc.status === 'ready') holdings.push({ symbol: 'USDC', value: usdc.value, decimals: 6 });
  const cents = totalCents(holdings, prices.prices);
  if (cents === null) return null;
  return (
    <p className="balance-total">
      ≈ {formatMoney(cents, prices.currency)} total on {chain.name}
    </p>
  );
}
