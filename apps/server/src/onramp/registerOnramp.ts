import type { OnrampInfo } from '@dial/api';
import type { AppContext } from '../appContext.js';
import { decideOnrampProvider } from '../config/index.js';
import type { TypedApp } from '../http/typedApp.js';
import { type AvailableOffer, availableOffers } from './availableOffers.js';
import { createCoinbaseProvider } from './coinbaseProvider.js';
import type { OnrampProvider } from './onrampProvider.js';
import { registerOnrampRoutes } from './onrampRoutes.js';

/** The on-ramp this server runs: its provider and what it offers. */
export interface Onramp {
  provider: OnrampProvider;
  offers: readonly AvailableOffer[];
}

/**
 * The on-ramp provider the configuration picked (`decideOnrampProvider`, which a configuration built by hand
 * is held to as well), or none when it is off or has nothing to offer (then `/api/config` says
 * `onramp: null` and `/api/onramp/session` does not exist). The sandbox's provider is loaded only when it is
 * on (never in production).
 */
export async function createOnramp(ctx: AppContext): Promise<Onramp | null> {
  const { config } = ctx;
  const offers = availableOffers(config);
  if (config.onramp === null || offers.length === 0) return null;
  const coinbase = config.onramp.coinbase;
  switch (decideOnrampProvider({ ...config, coinbase })) {
    case 'coinbase':
      return coinbase === null
        ? null
        : { provider: createCoinbaseProvider(coinbase, config.onramp, offers), offers };
    case 'sandbox': {
      const { createSandboxProvider } = await import('./sandboxProvider.js');
      return { provider: createSandboxProvider(ctx.db, config.publicUrl, ctx.now), offers };
    }
    case 'off':
      return null;
  }
}

/** What `GET /api/config` says of the on-ramp: its provider and offers, or null when it is off. */
export function onrampInfo(onramp: Onramp | null): OnrampInfo | null {
  return onramp === null ? null : { provider: onramp.provider.name, offers: [...onramp.offers] };
}

/**
 * The on-ramp's routes (`/api/onramp/session`), and the sandbox's checkout pages when the sandbox runs
 * (loaded only then, like its provider).
 */
export async function registerOnramp(app: TypedApp, ctx: AppContext, onramp: Onramp | null): Promise<void> {
  if (onramp === null) return;
  registerOnrampRoutes(app, ctx, onramp.provider, onramp.offers);
  if (onramp.provider.name === 'sandbox') {
    const { registerSandboxRoutes } = await import('./sandboxRoutes.js');
    await registerSandboxRoutes(app, ctx, onramp.offers);
  }
}
