import type { AppConfig } from './appConfig.js';

/** The local chain's routes exist in development and test with the local chain on, never in production. */
export function hasLocalChain(config: Pick<AppConfig, 'environment' | 'localChain'>): boolean {
  return config.environment !== 'production' && config.localChain !== null;
}
