import type { AppConfig, CoinbaseOnrampConfig, OnrampProviderName } from './appConfig.js';

/**
 * The one rule for which on-ramp runs: `coinbase` with a CDP API key; else the `sandbox` (our own checkout
 * crediting the local chain), only outside production with the local chain on; else `off`. `loadConfig`
 * picks the provider with it, and `createOnramp` (`onramp/registerOnramp.ts`) holds a configuration built
 * by hand (tests) to it as well, so that no configuration offers the sandbox in production.
 *
 * @param setting - The environment, the local chain, and the Coinbase settings (`null` without a CDP key).
 */
export function decideOnrampProvider(setting: {
  environment: AppConfig['environment'];
  localChain: AppConfig['localChain'];
  coinbase: CoinbaseOnrampConfig | null;
}): OnrampProviderName {
  if (setting.coinbase !== null) return 'coinbase';
  return setting.environment !== 'production' && setting.localChain !== null ? 'sandbox' : 'off';
}
