import type { PriceCurrency, PricedAsset } from '@dial/api';
import type { PriceSource } from './priceSource.js';

/** The sandbox's fixed test prices (README, `PRICE_SOURCE`): round numbers, so a total is easy to check. */
export const SANDBOX_PRICES: Readonly<Record<PriceCurrency, Readonly<Record<PricedAsset, string>>>> = {
  USD: { ETH: '3000.00', POL: '0.50', USDC: '1.00' },
};

/** Fixed test prices (development and `npm start`; refused in production): no network, never fails. */
export function createSandboxPriceSource(): PriceSource {
  return {
    name: 'sandbox',
    async quote(asset, currency) {
      return SANDBOX_PRICES[currency][asset];
    },
  };
}
