import type { OnrampSessionRequest, OnrampSessionStarted } from '@dial/api';
import { callApi } from '../api/client';

/** What `onrampSession` is asked for. */
export type OnrampPurchase = OnrampSessionRequest;

/** Starts a purchase for the signed-in user's wallet: the provider's buy-page link, with its session token. */
export function startOnrampSession(purchase: OnrampPurchase): Promise<OnrampSessionStarted> {
  return callApi('onrampSession', { body: purchase });
}
