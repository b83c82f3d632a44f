import type { Prices } from '@dial/api';
import { requestJson } from '../api/client';

export type { Prices };

/** `GET /api/prices`: what ETH, POL and USDC are worth in US dollars, as far as the server knows. */
export function getPrices(signal?: AbortSignal): Promise<Prices> {
  return requestJson<Prices>('GET', '/api/prices?currency=USD', signal === undefined ? {} : { signal });
}
