import { PRICE_CURRENCIES, type PriceCurrency, type Prices, pricesRoute } from '@dial/api';
import { DialError } from '@dial/core';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { createCoinbasePriceSource } from './coinbasePriceSource.js';
import type { PriceSource } from './priceSource.js';
import { readPrices } from './readPrices.js';
import { createSandboxPriceSource } from './sandboxPriceSource.js';

/**
 * `GET /api/prices`: what ETH, POL and USDC are worth, for the wallet home's total. Registered whatever the
 * source; with `PRICE_SOURCE=off` it answers no prices. Concurrent requests for one currency on this server
 * share one read (the source is asked once, not once per request); servers share the stored prices.
 */
export function registerPriceRoutes(app: TypedApp, ctx: AppContext): void {
  const source = createPriceSource(ctx.config);
  const reading = new Map<PriceCurrency, Promise<Prices['prices']>>();

  app.get(
    pricesRoute.url,
    {
      preHandler: app.requireUser,
      schema: pricesRoute.schema,
    },
    async (request) => {
      const asked = request.query.currency ?? 'USD';
      if (!isPriceCurrency(asked)) throw new DialError('currency_not_supported');
      if (source === null) return { currency: asked, source: 'off' as const, prices: [] };
      let prices = reading.get(asked);
      if (prices === undefined) {
        prices = readPrices(ctx, source, asked, request.log).finally(() => reading.delete(asked));
        reading.set(asked, prices);
      }
      return { currency: asked, source: source.name, prices: await prices };
    },
  );
}

function isPriceCurrency(value: string): value is PriceCurrency {
  return (PRICE_CURRENCIES as readonly string[]).includes(value);
}

/**
 * The configured source; `null` when prices are off. The sandbox's made-up prices are never given in
 * production, whatever a configuration built by hand says (loadConfig refuses it too).
 */
function createPriceSource(config: AppContext['config']): PriceSource | null {
  switch (config.prices.source) {
    case 'sandbox':
      return config.environment === 'production' ? null : createSandboxPriceSource();
    case 'coinbase':
      return createCoinbasePriceSource(config.prices.url);
    case 'off':
      return null;
  }
}
