import type { PriceCurrency, PricedAsset } from '@dial/api';
import { isPrice, type PriceSource } from './priceSource.js';

/** How long Coinbase may take to answer one price. */
const TIMEOUT_MS = 5_000;
/** A spot price answer is ~100 bytes; anything much larger is not one. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * Coinbase's public spot prices: `GET <PRICE_URL>/v2/prices/ETH-USD/spot`, answered
 * `{"data":{"amount":"3012.45","base":"ETH","currency":"USD"}}`. No key, no cookie, nothing about the user:
 * only the pair is sent. An answer for another pair, or without a positive decimal amount, is refused.
 *
 * @param baseUrl - `PRICE_URL` without a trailing slash, e.g. `https://api.coinbase.com`.
 */
export function createCoinbasePriceSource(baseUrl: string): PriceSource {
  return {
    name: 'coinbase',
    async quote(asset: PricedAsset, currency: PriceCurrency) {
      const url = new URL(`v2/prices/${asset}-${currency}/spot`, `${baseUrl}/`);
      const response = await fetch(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        // A redirect could lead anywhere; the configured base is where prices come from.
        redirect: 'error',
        credentials: 'omit',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`Coinbase spot price for ${asset}-${currency} answered HTTP ${response.status}`);
      }
      const text = await response.text();
      if (text.length > MAX_ANSWER_BYTES) throw new Error('Coinbase spot price answer is too large');
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new Error('Coinbase spot price answer is not JSON');
      }
      const data = (answer as { data?: { amount?: unknown; base?: unknown; currency?: unknown } } | null)
        ?.data;
      if (data?.base !== asset || data.currency !== currency || !isPrice(data.amount)) {
        throw new Error(`Coinbase spot price answer is not a price of ${asset} in ${currency}`);
      }
      return data.amount;
    },
  };
}
