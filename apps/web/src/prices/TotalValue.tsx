import { MINUTE_MS } from '@dial/core';
import { useEffect, useState } from 'react';
import type { Chain } from 'viem';
import type { BalanceState } from '../chain/useBalance';
import type { UsdcBalanceState } from '../chain/useUsdcBalance';
import { getPrices, type Prices } from './pricesApi';
import { countsTowardsTotal, formatMoney, type Holding, totalCents } from './totalValue';

interface TotalValueProps {
  chain: Chain;
  native: BalanceState;
  usdc: UsdcBalanceState;
}

/** The server keeps each price a minute: the home shown again within it reuses the last answer. */
const REUSE_MS = MINUTE_MS;
let lastPrices: { prices: Prices; at: number } | null = null;

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

function usePrices(): Prices | null {
  const [prices, setPrices] = useState(() =>
    lastPrices !== null && Date.now() - lastPrices.at < REUSE_MS ? lastPrices.prices : null,
  );
  const known = prices !== null;
  useEffect(() => {
    if (known) return;
    const abort = new AbortController();
    getPrices(abort.signal).then(
      (answer) => {
        lastPrices = { prices: answer, at: Date.now() };
        setPrices(answer);
      },
      // No prices (the server or its source failed): no total, and nothing else to say.
      () => {},
    );
    return () => abort.abort();
  }, [known]);
  return prices;
}
