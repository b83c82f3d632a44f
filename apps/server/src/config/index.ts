export type {
  Allowlist,
  AppConfig,
  ChainWatchConfig,
  ChainWatchMode,
  CoinbaseOnrampConfig,
  Environment,
  HttpLimits,
  LoadedConfig,
  LocalChainConfig,
  LogLevel,
  OnrampConfig,
  OnrampProviderName,
  PaymasterConfig,
  PriceConfig,
  RedisConfig,
  ShareKeySource,
  SponsorCalls,
  SponsorshipConfig,
  TrustProxy,
} from './appConfig.js';
export { ConfigError } from './configError.js';
export { configWarnings } from './configWarnings.js';
export { decideOnrampProvider } from './decideOnrampProvider.js';
export { hasLocalChain } from './hasLocalChain.js';
export { isLoopbackHost } from './isLoopbackHost.js';
export { isUnderTest } from './isUnderTest.js';
export { KEY_FILE_NAME, loadConfig, REDIS_KEY_PREFIX } from './loadConfig.js';
export { parseKey } from './parseKey.js';
export { parseTrustProxy } from './parseTrustProxy.js';
export {
  CONFIG_VARIABLES,
  DEFAULT_HTTP_LIMITS,
  DEFAULT_ONRAMP_API_URL,
  DEFAULT_PRICE_URL,
  DEFAULT_WEB_DIST_DIR,
  TEST_VARIABLES,
} from './variables.js';
