import { requestJson } from '../api/client';
import type { OnrampAssetCode } from '../api/types';

/** What `POST /api/onramp/session` is asked for. */
export interface OnrampPurchase {
  asset: OnrampAssetCode;
  network: string;
  amount: string;
  experience: 'buy' | 'send';
}

/** Starts a purchase for the signed-in user's wallet: the provider's buy-page link, with its session token. */
export function startOnrampSession(
  purchase: OnrampPurchase,
): Promise<{ url: string; provider: 'coinbase' | 'sandbox' }> {
  return requestJson('POST', '/api/onramp/session', { body: purchase });
}
