import { MINUTE_MS } from '@dial/core';
import { useEffect, useState } from 'react';
import { getPrices, type Prices } from './pricesApi';

/** The server keeps each price a minute: a screen shown again within it reuses the last answer. */
const REUSE_MS = MINUTE_MS;
let lastPrices: { prices: Prices; at: number } | null = null;

/**
 * The prices in US dollars (`GET /api/prices`), asked for once per minute at most by every screen that shows
 * a money value (the wallet's total, a send's fee); null until known, or when they could not be read.
 */
export function usePrices(): Prices | null {
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
