import { PRICED_ASSETS, type PriceCurrency, type PricedAsset, type Prices } from '@dial/api';
import { MINUTE_SECONDS } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../appContext.js';
import type { PriceSource } from './priceSource.js';

/** A stored price younger than this is answered as it is: the source is asked at most once a minute. */
export const PRICE_FRESH_SECONDS = 60;
/**
 * When the source fails, a stored price at most this old is still answered (with its `fetchedAt`); an older
 * one never is: no price is better than a wrong one.
 */
export const PRICE_USABLE_SECONDS = 5 * MINUTE_SECONDS;

type Quote = Prices['prices'][number];

/**
 * The prices of {@link PRICED_ASSETS} in `currency`: those stored in `price_quotes` in the last
 * {@link PRICE_FRESH_SECONDS} seconds (by any server sharing the database), the others asked of `source` and
 * stored. An asset the source cannot price just now is answered from a stored price of the last
 * {@link PRICE_USABLE_SECONDS} seconds, or left out.
 */
export async function readPrices(
  ctx: Pick<AppContext, 'db' | 'now'>,
  source: PriceSource,
  currency: PriceCurrency,
  log: FastifyBaseLogger,
): Promise<Quote[]> {
  const now = ctx.now();
  const ageOf = (fetchedAt: string) => (now.getTime() - Date.parse(fetchedAt)) / 1000;
  const stored = await ctx.db
    .selectFrom('price_quotes')
    .select(['symbol', 'price', 'fetched_at'])
    .where('currency', '=', currency)
    .execute();
  const storedBySymbol = new Map(stored.map((row) => [row.symbol, row]));
  const quotes = new Map<PricedAsset, Quote>();
  const due: PricedAsset[] = [];
  for (const symbol of PRICED_ASSETS) {
    const row = storedBySymbol.get(symbol);
    // A stored time ahead of the clock (another server's clock) counts as fresh only up to the same minute.
    if (row !== undefined && Math.abs(ageOf(row.fetched_at)) < PRICE_FRESH_SECONDS) {
      quotes.set(symbol, { symbol, price: row.price, fetchedAt: row.fetched_at });
    } else {
      due.push(symbol);
    }
  }

  const results = await Promise.allSettled(due.map((symbol) => source.quote(symbol, currency)));
  const fetchedAt = now.toISOString();
  for (const [index, result] of results.entries()) {
    const symbol = due[index]!;
    if (result.status === 'fulfilled') {
      const price = result.value;
      await ctx.db
        .insertInto('price_quotes')
        .values({ symbol, currency, price, fetched_at: fetchedAt })
        .onConflict((conflict) =>
          conflict.columns(['symbol', 'currency']).doUpdateSet({ price, fetched_at: fetchedAt }),
        )
        .execute();
      quotes.set(symbol, { symbol, price, fetchedAt });
      continue;
    }
    log.warn({ err: result.reason, symbol, currency, source: source.name }, 'price source failed');
    const row = storedBySymbol.get(symbol);
    if (row !== undefined && ageOf(row.fetched_at) >= 0 && ageOf(row.fetched_at) <= PRICE_USABLE_SECONDS) {
      quotes.set(symbol, { symbol, price: row.price, fetchedAt: row.fetched_at });
    }
  }
  return PRICED_ASSETS.flatMap((symbol) => {
    const quote = quotes.get(symbol);
    return quote === undefined ? [] : [quote];
  });
}
