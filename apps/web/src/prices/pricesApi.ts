import type { Prices } from '@dial/api';
import { callApi } from '../api/client';

export type { Prices };

/** `prices`: what ETH, POL and USDC are worth in US dollars, as far as the server knows. */
export function getPrices(signal?: AbortSignal): Promise<Prices> {
  return callApi('prices', { query: { currency: 'USD' }, signal });
}
